package io.formation.sdk;

/**
 * The SDK's exception factory, for tests of the internals (typed as Object: the internal package is
 * not exported to this one's public signatures).
 */
public final class TestFailures {
  public static final Object INSTANCE = Exceptions.INSTANCE;

  private TestFailures() {}
}
