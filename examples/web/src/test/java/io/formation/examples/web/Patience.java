package io.formation.examples.web;

import java.time.Duration;

/**
 * How long a test waits for something the backend or the page does, derived from the schedule that
 * makes it happen, with room for a machine busy with other builds. Never a fixed minute.
 */
final class Patience {
  /** How much slower than its schedule a loaded 2-core machine may run a step. */
  static final int LOADED = 10;

  private Patience() {}

  /** A closed tab's stream ends at its second failed heartbeat. */
  static Duration heartbeats(Duration heartbeat) {
    return heartbeat.multipliedBy(2L * LOADED);
  }
}
