package io.formation.sandbox;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Random identifiers and signatures for one sandbox. Signing cursors and action urls with a key
 * that lives only as long as the sandbox makes them truly opaque: a client that builds or edits
 * one, instead of using it as returned, gets an error, just as it would from the real service.
 */
final class Secrets {
  private static final String ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyz";

  private final SecureRandom random = new SecureRandom();
  private final SecretKeySpec key;

  Secrets() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    key = new SecretKeySpec(bytes, "HmacSHA256");
  }

  /** Returns a lower-case alphanumeric identifier with this prefix, such as {@code ds_...}. */
  String id(String prefix, int length) {
    StringBuilder id = new StringBuilder(prefix);
    for (int i = 0; i < length; i++) {
      id.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
    }
    return id.toString();
  }

  /** Returns a random URL-safe token. */
  String token() {
    byte[] bytes = new byte[24];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Returns the hex HMAC-SHA256 of {@code message} under this sandbox's key. */
  String sign(String message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  /** Compares in constant time, so signatures cannot be guessed byte by byte. */
  static boolean same(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
