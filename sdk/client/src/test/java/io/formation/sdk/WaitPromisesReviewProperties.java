package io.formation.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.MissingNode;
import io.formation.sdk.internal.limits.RetryPolicy;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A reviewer's properties of the wait's rule at the edges the example tests do not reach: instants
 * finer than a millisecond, and ids of any Java string.
 */
class WaitPromisesReviewProperties {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  @Property(tries = 300)
  void theRuleNeverLetsAPollComeWithin100MillisecondsOfTheLastWhateverTheClockReads(
      @ForAll("nanosIntoAMillisecond") long nanos,
      @ForAll("answerTimes") long answerNanos,
      @ForAll("retryPauses") Duration pause) {
    PollOptions options =
        PollOptions.builder()
            .initialInterval(Duration.ofMillis(1))
            .maxInterval(Duration.ofMillis(1))
            .jitter(0)
            .retryFailuresAfter(pause)
            .build();
    WaitRule rule = new WaitRule(options, () -> 0.0, retryPolicy());
    Instant sent = START.plusNanos(nanos);
    WaitState wait = rule.takenUp(WaitState.start("ds_1", sent, options, null, null), sent);
    Instant first = rule.pollAt(wait, wait.nextPoll(), sent);
    Instant answered = first.plusNanos(answerNanos);
    WaitRule.Decision decision = rule.afterPoll(wait, set("finalizing"), answered);
    WaitState after = WaitState.decode(decision.result().waitState().encode());

    Instant second = rule.pollAt(after, after.nextPoll(), answered);

    assertThat(Duration.between(first, second)).isGreaterThanOrEqualTo(WaitRule.MIN_GAP);
  }

  @Property(tries = 500)
  void everyIdAWaitAcceptsComesBackFromItsString(@ForAll("anyIds") String id) {
    WaitState wait;
    try {
      wait = WaitState.start(id, START, PollOptions.defaults(), null, null);
    } catch (IllegalArgumentException refused) {
      assertThat(refused).hasMessageContaining("document set id");
      return;
    }
    assertThat(visible(WaitState.decode(wait.encode()).setId())).isEqualTo(visible(id));
  }

  @Provide
  Arbitrary<Long> nanosIntoAMillisecond() {
    return Arbitraries.longs().between(0, 999_999);
  }

  @Provide
  Arbitrary<Long> answerTimes() {
    return Arbitraries.longs().between(0, Duration.ofSeconds(3).toNanos());
  }

  @Provide
  Arbitrary<Duration> retryPauses() {
    return Arbitraries.longs().between(1, 500).map(Duration::ofMillis);
  }

  @Provide
  Arbitrary<String> anyIds() {
    return Arbitraries.strings()
        .all()
        .ofMinLength(1)
        .ofMaxLength(20)
        .filter(s -> !s.isBlank() && !s.equals(".") && !s.equals(".."));
  }

  private static DocumentSet set(String state) {
    return new DocumentSet(
        "ds_1", DocumentSetState.of(state), Optional.empty(), MissingNode.getInstance());
  }

  private static RetryPolicy retryPolicy() {
    return new RetryPolicy(
        2,
        Duration.ofSeconds(60),
        Duration.ofSeconds(30),
        new Time(Clock.fixed(START, ZoneOffset.UTC), System::nanoTime, null, () -> 0.5));
  }

  /** The string with every char outside printable ASCII as a Java escape, readable in a report. */
  static String visible(String text) {
    StringBuilder out = new StringBuilder();
    for (char c : text.toCharArray()) {
      if (c >= 0x20 && c < 0x7f) {
        out.append(c);
      } else {
        out.append(String.format(java.util.Locale.ROOT, "\\u%04X", (int) c));
      }
    }
    return out.toString();
  }
}
