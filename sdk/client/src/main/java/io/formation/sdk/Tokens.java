package io.formation.sdk;

import java.util.function.Supplier;

/**
 * The partner's token provider as the transport asks it; classes, as on the way to a first call.
 */
final class Tokens implements Supplier<String> {
  private final TokenProvider provider;

  Tokens(TokenProvider provider) {
    this.provider = provider;
  }

  @Override
  public String get() {
    return provider.token();
  }

  static TokenProvider fixed(String token) {
    return new Fixed(token);
  }

  // A class, not a record: neither equality nor the hash code may come from the secret.
  private static final class Fixed implements TokenProvider {
    private final String token;

    Fixed(String token) {
      this.token = token;
    }

    @Override
    public String token() {
      return token;
    }
  }
}
