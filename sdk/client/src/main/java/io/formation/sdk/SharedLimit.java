package io.formation.sdk;

import java.time.Duration;
import java.util.Optional;

/**
 * Where the instances that call the service with one token share what they learn of its rate limit,
 * so that together they follow it as one client would: the cut one instance's refusals call for,
 * how many instances are live, and how fast the service answers them. {@code formation-tracking}'s
 * {@code DatabaseLimit} keeps it in the partner's database; without one, each client learns the
 * limit on its own.
 *
 * <p>A client calls {@link #exchange} once for its base URL's origin as it is built, then for each
 * origin it sent a request to in the last second, about every 100 ms and at once after a cut, on a
 * thread of its own: a call never waits for it. The live instances are those that exchanged lately:
 * each takes an even share of the answers the fleet got when it cuts, and of a {@link
 * FormationClient.Builder#requestBudget budget}. While an exchange throws or hangs, the client
 * follows its own rate, with the last count of live instances it was told. Times travel as ages, so
 * that machines whose clocks differ agree.
 */
@FunctionalInterface
public interface SharedLimit {
  /**
   * Tells the fleet what this instance learned since its last exchange, and hears what the fleet
   * knows.
   *
   * @param origin the origin, with its port, such as {@code https://api.example.com:443}
   * @param news this instance's fresh cut and its answers a second
   * @return the fleet's newest cut, its live instances and their answers a second
   * @throws Exception when the fleet cannot be reached: the client goes on alone until an exchange
   *     succeeds
   */
  Fleet exchange(String origin, News news) throws Exception;

  /**
   * What one instance learned.
   *
   * @param cutAgo how long ago its refusals cut its rate, if that is news
   * @param answeredPerSecond how many of its requests a second were answered lately, refusals aside
   */
  record News(Optional<Duration> cutAgo, double answeredPerSecond) {}

  /**
   * What the fleet knows.
   *
   * @param lastCutAgo how long ago an instance last cut, if any did
   * @param instances the live instances, this one included: at least 1
   * @param answeredPerSecond the live instances' answers a second, together; 0 if unknown
   */
  record Fleet(Optional<Duration> lastCutAgo, int instances, double answeredPerSecond) {}
}
