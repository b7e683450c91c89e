package io.formation.sdk;

import io.formation.sdk.internal.guards.Log;

/**
 * The SDK's port (its exception factory), for tests of the internals (typed as Object: the internal
 * package is not exported to this one's public signatures).
 */
public final class TestFailures {
  public static final Object INSTANCE = new Events(null, null, Log.fromEnvironment());

  private TestFailures() {}
}
