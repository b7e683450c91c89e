package io.formation.examples.web;

import io.formation.sandbox.SandboxOptions;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The embedded sandbox as the tests run it: on a clock that moves only when a test says so, with
 * the review that sends a document set back to input_needed once, and with a token of its own so
 * that a test can look for it in everything the browser receives.
 */
@TestConfiguration(proxyBeanMethods = false)
class SandboxForTests {
  static final String TOKEN = "tok-" + UUID.randomUUID();
  static final Instant START = Instant.parse("2026-01-05T09:00:00Z");

  /** How long a browser test of this sandbox waits for one thing the page shows. */
  static final Duration PATIENCE = Patience.page(options(new FakeTime(START)));

  @Bean
  FakeTime testClock() {
    return new FakeTime(START);
  }

  @Bean
  SandboxOptions sandboxOptions(FakeTime clock) {
    return options(clock);
  }

  static SandboxOptions options(FakeTime clock) {
    return SandboxOptions.defaults().withToken(TOKEN).withClock(clock).withReview(true);
  }

  /** Moves the clock just past the time the set spends in {@code state}. */
  static void leave(FakeTime clock, SandboxOptions options, String state) {
    Duration stay = state.equals("input_needed") ? options.processingLag() : options.stepDelay();
    clock.advance(stay.plusMillis(1));
  }
}
