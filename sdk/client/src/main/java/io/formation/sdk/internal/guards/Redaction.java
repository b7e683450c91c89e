package io.formation.sdk.internal.guards;

import java.io.IOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The one redaction: every message, log line, event and toString() goes through here. */
public final class Redaction {
  static final String REDACTED = "<redacted>";

  private static final Pattern TOKEN_LIKE =
      Pattern.compile(
          "(?i)(bearer\\s+)[^\\s\"',;]+|eyJ[A-Za-z0-9_-]{6,}\\.[A-Za-z0-9_-]{6,}\\.[A-Za-z0-9_-]*");

  /** A URL's or path's query. */
  private static final Pattern QUERY =
      Pattern.compile("((?:https?://|/)[^\\s\"'?<>]*)\\?[^\\s\"'<>]*");

  private Redaction() {}

  /** The text with the token, anything token-like and every URL's query replaced. */
  public static String redact(String text, String token) {
    if (text == null) {
      return null;
    }
    String safe = token == null || token.isEmpty() ? text : text.replace(token, REDACTED);
    // $1 is the "Bearer " kept, or nothing for a bare token.
    safe = TOKEN_LIKE.matcher(safe).replaceAll("$1" + REDACTED);
    return QUERY.matcher(safe).replaceAll("$1?" + REDACTED);
  }

  /** The text of a URL up to its query: the one way a URL loses its query for display. */
  public static String withoutQuery(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  /** The throwable as is, or a copy with every message redacted. */
  public static Throwable scrub(Throwable error, String token) {
    if (error == null || clean(error, token, Collections.newSetFromMap(new IdentityHashMap<>()))) {
      return error;
    }
    return copy(error, token, new IdentityHashMap<>());
  }

  /** {@link #scrub} for an I/O failure, which stays one. */
  public static IOException scrub(IOException error, String token) {
    return (IOException) scrub((Throwable) error, token);
  }

  private static boolean clean(Throwable error, String token, Set<Throwable> seen) {
    if (!seen.add(error) || error instanceof Redacted) {
      return true;
    }
    String message = error.getMessage();
    if (message != null && !message.equals(redact(message, token))) {
      return false;
    }
    for (Throwable suppressed : error.getSuppressed()) {
      if (!clean(suppressed, token, seen)) {
        return false;
      }
    }
    return error.getCause() == null || clean(error.getCause(), token, seen);
  }

  private static Throwable copy(Throwable error, String token, Map<Throwable, Throwable> done) {
    Throwable made = done.get(error);
    if (made != null) {
      return made;
    }
    Redacted copy = new Redacted(error.getClass().getName(), redact(error.getMessage(), token));
    done.put(error, copy);
    copy.setStackTrace(error.getStackTrace());
    if (error.getCause() != null) {
      copy.initCause(copy(error.getCause(), token, done));
    }
    for (Throwable suppressed : error.getSuppressed()) {
      copy.addSuppressed(copy(suppressed, token, done));
    }
    return copy;
  }

  /** Stands for an exception whose message held a secret, redacted. */
  static final class Redacted extends IOException {
    private static final long serialVersionUID = 1L;

    private final String type;

    Redacted(String type, String message) {
      super(message);
      this.type = type;
    }

    @Override
    public String toString() {
      String message = getLocalizedMessage();
      return message == null ? type : type + ": " + message;
    }
  }
}
