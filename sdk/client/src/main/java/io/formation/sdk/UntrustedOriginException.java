package io.formation.sdk;

import io.formation.sdk.internal.guards.Origins;

/**
 * A URL handed back by the service (a {@code next} link, an action url) points at an origin other
 * than the base URL's and one the caller did not trust, or is not an http(s) URL at all. Nothing
 * was sent: the bearer token only goes to trusted origins. Trust an origin with {@link
 * FormationClient.Builder#trustOrigin}.
 */
public class UntrustedOriginException extends FormationException {
  private static final long serialVersionUID = 1L;

  /** The refused origin. */
  private final String origin;

  // The message names only the origin or scheme: the rest of a hostile URL can carry the token.
  UntrustedOriginException(String origin) {
    super(
        origin.contains("://")
            ? "Refused to send the access token to "
                + origin
                + ": not the base URL's origin and not trusted"
            : origin.equals(Origins.CREDENTIALS)
                ? "Refused a URL that carries "
                    + origin
                    + ": the SDK authenticates with the access token alone, as the base URL does"
                : "Refused a URL that is not http(s) (" + origin + ")");
    this.origin = origin;
  }

  /**
   * {@return the refused origin, as {@code scheme://host:port}, or the scheme of a URL that is not
   * http(s)}
   */
  public String origin() {
    return origin;
  }
}
