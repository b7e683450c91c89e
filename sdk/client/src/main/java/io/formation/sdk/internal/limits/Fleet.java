package io.formation.sdk.internal.limits;

import java.time.Duration;

/** The instances that share an origin's limit, as the limits see the public {@code SharedLimit}. */
public interface Fleet {
  /**
   * Tells the fleet of this instance's cut, null for none, and its answers a second; {@return what
   * the fleet knows, or null when it cannot be reached}
   */
  Known exchange(String origin, Duration cutAgo, double answeredPerSecond);

  /** The fleet's newest cut, null for none, its live instances and their answers a second. */
  record Known(Duration lastCutAgo, int instances, double answeredPerSecond) {}
}
