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

  private record Fixed(String token) implements TokenProvider {
    @Override
    public String toString() {
      return "Fixed[token=hidden]";
    }
  }
}
