package io.formation.sdk;

/**
 * Supplies the access token for each request, so a token can rotate without rebuilding the client.
 * Called on the thread that sends the request; implementations must be thread-safe and should cache
 * the token rather than fetch one per call.
 *
 * <pre>{@code
 * FormationClient client = FormationClient.builder()
 *     .baseUrl("https://api.example.com")
 *     .tokenProvider(tokenCache::currentToken)
 *     .build();
 * }</pre>
 */
@FunctionalInterface
public interface TokenProvider {
  /** {@return the current access token, without the {@code Bearer} prefix} */
  String token();
}
