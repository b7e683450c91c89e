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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import okhttp3.Headers;

/**
 * The wait's rule driven by random sequences of answers, clock jumps, resumes from the saved string
 * and submissions, under random options, carried out as a scheduler of saved waits does (one poll
 * per step, going on through {@code input_needed}). Whatever the sequence, the rule keeps its
 * promises.
 */
class WaitRuleProperties {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration LATEST_ANSWER = Duration.ofSeconds(3);
  private static final List<String> STATES =
      List.of(
          "input_needed",
          "signature_requests_needed",
          "awaiting_payment",
          "filing_in_progress",
          "finalizing",
          "complete",
          "under_review",
          "x".repeat(300),
          "é".repeat(120));

  sealed interface Event {}

  /** The service answered the poll with a set in this state. */
  record Answer(String state) implements Event {}

  /** The poll failed: a status (0 for a dropped connection, -1 for an answer not a set). */
  record Failed(int status, boolean sent, Long retryAfterSeconds) implements Event {}

  /** Time passed with nothing done: the process was down, or busy. */
  record Idle(Duration duration) implements Event {}

  /** The wait was saved as its string and taken up again, by another process. */
  record Resumed() implements Event {}

  /** A submission of the set's forms was accepted this long ago, and told to the wait. */
  record Submitted(Duration ago) implements Event {}

  record Scenario(PollOptions options, String id, List<Event> events, long seed) {}

  @Property(tries = 400)
  void everyWaitKeepsTheRulesPromises(@ForAll("scenarios") Scenario scenario) {
    Random random = new Random(scenario.seed());
    WaitRule rule = new WaitRule(scenario.options(), random::nextDouble, retryPolicy());
    Instant now = START;
    WaitState wait =
        rule.takenUp(WaitState.start(scenario.id(), now, scenario.options(), null, null), now);
    Instant deadline = wait.deadline();
    Instant lastSent = null;
    Instant lastAnswered = null;
    boolean toldThisEpisode = false;
    FormationException lastFailure = null;
    List<Event> events = new ArrayList<>(scenario.events());
    // After the scripted events the set stays where it is, and time runs to the deadline.
    boolean toTheDeadline = false;
    while (true) {
      assertRoundTrips(wait);
      Event event = events.isEmpty() ? null : events.remove(0);
      if (event == null && !toTheDeadline) {
        if (deadline.equals(Instant.MAX)) {
          return;
        }
        toTheDeadline = true;
        if (now.isBefore(deadline)) {
          now = deadline;
        }
      }
      if (event instanceof Idle idle) {
        now = now.plus(idle.duration());
        continue;
      }
      if (event instanceof Resumed) {
        wait = rule.takenUp(WaitState.decode(wait.encode()), now);
        continue;
      }
      if (event instanceof Submitted submitted) {
        WaitState told = wait.withSubmission(now.minus(submitted.ago()));
        if (told != wait) {
          toldThisEpisode = false;
        }
        wait = told;
        continue;
      }
      Instant at = rule.pollAt(wait, wait.nextPoll(), now);
      if (at == null) {
        // No poll may be sent before the deadline: the wait ends there, never before it.
        assertThat(deadline).isNotEqualTo(Instant.MAX);
        assertThat(
                now.isAfter(deadline)
                    || lastAnswered != null
                        && lastAnswered.plus(WaitRule.MIN_GAP).isAfter(deadline))
            .as("a wait that may still poll before its deadline does not end")
            .isTrue();
        return;
      }
      assertThat(at).as("a poll is never scheduled in the past").isAfterOrEqualTo(now);
      now = at;
      assertThat(now).as("no poll after the deadline").isBeforeOrEqualTo(deadline);
      if (lastSent != null) {
        assertThat(Duration.between(lastSent, now))
            .as("no two polls closer than the least gap")
            .isGreaterThanOrEqualTo(WaitRule.MIN_GAP);
      }
      lastSent = now;
      now = now.plusMillis((long) (random.nextDouble() * LATEST_ANSWER.toMillis()));
      lastAnswered = now;
      Event answer =
          event != null
              ? event
              : new Answer(wait.lastState().map(DocumentSetState::value).orElse("input_needed"));
      WaitRule.Decision decision =
          answer instanceof Answer a
              ? rule.afterPoll(wait, set(scenario.id(), a.state()), now)
              : rule.afterFailure(wait, failure((Failed) answer), now, lastFailure);
      if (decision.end() != null) {
        if (decision.end() instanceof PollTimeoutException) {
          // A failure with no poll left before the deadline ends the wait there, not at once.
          assertThat(decision.endAt() != null ? decision.endAt() : now)
              .as("a wait never times out before its deadline")
              .isAfterOrEqualTo(deadline);
        } else {
          assertThat(decision.end())
              .as("only a failure the wait does not ride through ends it before the deadline")
              .satisfiesAnyOf(
                  end -> assertThat(end).isInstanceOf(NotFoundException.class),
                  end -> {
                    assertThat(WaitRule.isTransient(end)).isFalse();
                    assertThat(scenario.options().retryFailuresAfter()).isEmpty();
                  });
        }
        return;
      }
      PollResult result = decision.result();
      if (result.kind() == PollResult.Kind.COMPLETE) {
        assertThat(result.set().orElseThrow().state().isComplete()).isTrue();
        return;
      }
      assertThat(now)
          .as("the wait ends at its deadline, whatever the set's state")
          .isBefore(deadline);
      assertThat(result.nextPollAt())
          .as("the next poll is at the deadline or before")
          .isBeforeOrEqualTo(deadline)
          .isAfterOrEqualTo(now.truncatedTo(ChronoUnit.MILLIS));
      if (answer instanceof Answer a && !DocumentSetState.of(a.state()).needsInput()) {
        toldThisEpisode = false;
      }
      if (result.kind() == PollResult.Kind.INPUT_NEEDED) {
        assertThat(toldThisEpisode).as("input_needed is told once per episode").isFalse();
        assertThat(result.set().orElseThrow().state().needsInput()).isTrue();
        toldThisEpisode = true;
      }
      if (answer instanceof Failed failed
          && failed.status() > 0
          && failed.retryAfterSeconds() != null
          && WaitRule.isTransient(failure(failed))) {
        Duration honoured = Duration.ofSeconds(Math.min(failed.retryAfterSeconds(), 60));
        assertThat(result.nextPollAt())
            .as("a Retry-After is honoured up to the deadline")
            .isAfterOrEqualTo(earlier(now.plus(honoured), deadline).truncatedTo(ChronoUnit.MILLIS));
      }
      lastFailure = result.failure().orElse(null);
      wait = result.waitState();
      if (toTheDeadline) {
        // One more round at most: the next poll is at the deadline, where the wait ends.
        now = later(now, result.nextPollAt());
      }
    }
  }

  @Property(tries = 300)
  void everyStringAWaitEncodesToDecodesToAnEqualWait(
      @ForAll("ids") String id,
      @ForAll("options") PollOptions options,
      @ForAll("traces") String trace) {
    WaitState wait;
    try {
      wait = WaitState.start(id, START, options, START.minusSeconds(3), trace);
    } catch (IllegalArgumentException refused) {
      assertThat(refused).hasMessageContaining("document set id");
      return;
    }
    assertRoundTrips(wait);
    // A context a wait cannot save is left out; one it can is kept as given.
    assertThat(wait.traceContext())
        .isEqualTo(
            trace != null && WaitCodec.saveableTrace(trace)
                ? java.util.Optional.of(trace)
                : java.util.Optional.empty());
    Random random = new Random(id.hashCode());
    WaitRule rule = new WaitRule(options, random::nextDouble, retryPolicy());
    Instant now = START;
    for (String state : STATES) {
      now = now.plusSeconds(1);
      WaitRule.Decision decision = rule.afterPoll(wait, set(id, state), now);
      if (decision.result() == null) {
        return;
      }
      wait = decision.result().waitState();
      assertRoundTrips(wait);
      assertThat(WaitState.decode(wait.encode()).traceContext()).isEqualTo(wait.traceContext());
    }
  }

  @Property(tries = 200)
  void aLastPollSavedInTheFutureDelaysTheNextPollByNoMoreThanTheGap(
      @ForAll("options") PollOptions options, @ForAll("aheadBy") Duration aheadBy) {
    WaitRule rule = new WaitRule(options, () -> 0.5, retryPolicy());
    WaitState started = WaitState.start("ds_1", START, options, null, null);
    Instant other = START.plus(aheadBy);
    WaitRule.Decision byAnotherClock = rule.afterPoll(started, set("ds_1", "finalizing"), other);
    if (byAnotherClock.result() == null) {
      return;
    }
    WaitState saved = byAnotherClock.result().waitState();
    Instant at = rule.pollAt(saved, START, START);

    if (at != null) {
      assertThat(at).isBeforeOrEqualTo(START.plus(WaitRule.MIN_GAP));
    } else {
      assertThat(saved.deadline()).isBefore(START.plus(WaitRule.MIN_GAP));
    }
  }

  private static void assertRoundTrips(WaitState wait) {
    String encoded = wait.encode();
    assertThat(encoded.length()).isLessThanOrEqualTo(WaitCodec.LONGEST_ENCODED);
    assertThat(encoded).matches("[A-Za-z0-9_.%-]+");
    assertThat(WaitState.decode(encoded)).isEqualTo(wait);
  }

  private static DocumentSet set(String id, String state) {
    return new DocumentSet(
        id, DocumentSetState.of(state), java.util.Optional.empty(), MissingNode.getInstance());
  }

  private static RuntimeException failure(Failed failed) {
    if (failed.status() == 0) {
      return Exceptions.network("connection dropped", null, failed.sent());
    }
    if (failed.status() == -1) {
      return Exceptions.invalidResponse("not a document set", 200, "<html>");
    }
    Headers headers =
        failed.retryAfterSeconds() == null
            ? Headers.of()
            : Headers.of("Retry-After", Long.toString(failed.retryAfterSeconds()));
    return Exceptions.forStatus(
        "GET", "https://api.example/v1/document_sets/x", failed.status(), headers, "", null);
  }

  private static RetryPolicy retryPolicy() {
    Clock clock = Clock.fixed(START, ZoneOffset.UTC);
    return new RetryPolicy(
        2,
        Duration.ofSeconds(60),
        Duration.ofSeconds(30),
        new Time(clock, System::nanoTime, null, () -> 0.5));
  }

  private static Instant earlier(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<String> saveable =
        ids()
            .filter(id -> WaitCodec.escape(id).length() <= WaitState.LONGEST_ID)
            .filter(id -> java.nio.charset.StandardCharsets.UTF_8.newEncoder().canEncode(id));
    return Combinators.combine(
            options(), saveable, events().list().ofMaxSize(40), Arbitraries.longs())
        .as(Scenario::new);
  }

  @Provide
  Arbitrary<String> ids() {
    return Arbitraries.oneOf(
        Arbitraries.strings().alpha().numeric().withChars('_', '-').ofMinLength(1).ofMaxLength(40),
        Arbitraries.strings()
            .all()
            .ofMinLength(1)
            .ofMaxLength(400)
            .filter(s -> !s.isBlank() && !s.equals(".") && !s.equals("..")));
  }

  @Provide
  Arbitrary<String> traces() {
    return Arbitraries.oneOf(
            Arbitraries.strings()
                .withCharRange('0', '9')
                .withCharRange('a', 'f')
                .ofLength(32)
                .map(traceId -> "00-" + traceId + "-b7ad6b7169203331-03"),
            Arbitraries.strings().ascii().ofMaxLength(200),
            Arbitraries.strings().all().ofMaxLength(40))
        .injectNull(0.2);
  }

  @Provide
  Arbitrary<Duration> aheadBy() {
    return Arbitraries.longs().between(0, Duration.ofDays(400).toMillis()).map(Duration::ofMillis);
  }

  @Provide
  Arbitrary<PollOptions> options() {
    Arbitrary<Duration> interval = durations(Duration.ofMillis(1), Duration.ofMinutes(10));
    Arbitrary<Duration> timeout =
        Arbitraries.oneOf(
            Arbitraries.just(Duration.ofNanos(1)),
            Arbitraries.just(ChronoUnit.FOREVER.getDuration()),
            durations(Duration.ofMillis(1), Duration.ofSeconds(5)),
            durations(Duration.ofSeconds(5), Duration.ofDays(40)));
    Arbitrary<Duration> grace =
        Arbitraries.oneOf(
            Arbitraries.just(Duration.ZERO),
            Arbitraries.just(ChronoUnit.FOREVER.getDuration()),
            durations(Duration.ofMillis(1), Duration.ofMinutes(5)));
    Arbitrary<Duration> window =
        Arbitraries.oneOf(
            Arbitraries.just(Duration.ZERO), durations(Duration.ofMillis(1), Duration.ofHours(2)));
    Arbitrary<Duration> pause =
        Arbitraries.oneOf(
            Arbitraries.just(Duration.ZERO),
            durations(Duration.ofMillis(1), Duration.ofMinutes(20)));
    return Combinators.combine(
            interval,
            Arbitraries.doubles().between(1, 4),
            interval,
            Arbitraries.doubles().between(0, 1),
            timeout,
            grace,
            window,
            Arbitraries.of(true, false))
        .flatAs(
            (first, multiplier, other, jitter, limit, inputGrace, firstWithin, through) ->
                pause.map(
                    retry -> {
                      Duration min = first.compareTo(other) <= 0 ? first : other;
                      Duration max = first.compareTo(other) <= 0 ? other : first;
                      PollOptions.Builder builder =
                          PollOptions.builder()
                              .initialInterval(min)
                              .multiplier(multiplier)
                              .maxInterval(max)
                              .jitter(jitter)
                              .timeout(limit)
                              .inputNeededGrace(inputGrace)
                              .firstPollWithin(firstWithin)
                              .waitThroughInputNeeded(through);
                      return retry.isZero()
                          ? builder.build()
                          : builder.retryFailuresAfter(retry).build();
                    }));
  }

  private Arbitrary<Event> events() {
    Arbitrary<Event> answers = Arbitraries.of(STATES).map(Answer::new);
    Arbitrary<Event> failures =
        Combinators.combine(
                Arbitraries.of(400, 401, 403, 404, 408, 429, 500, 502, 503, 504, 0, -1),
                Arbitraries.of(true, false),
                Arbitraries.longs().between(0, 3600).injectNull(0.4))
            .as(Failed::new);
    Arbitrary<Event> idles =
        Arbitraries.oneOf(
                durations(Duration.ZERO, Duration.ofSeconds(10)),
                durations(Duration.ofSeconds(10), Duration.ofDays(3)))
            .map(Idle::new);
    Arbitrary<Event> resumes = Arbitraries.just(new Resumed());
    Arbitrary<Event> submissions =
        durations(Duration.ZERO, Duration.ofMinutes(5)).map(Submitted::new);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(8, answers),
        net.jqwik.api.Tuple.of(4, failures),
        net.jqwik.api.Tuple.of(2, idles),
        net.jqwik.api.Tuple.of(2, resumes),
        net.jqwik.api.Tuple.of(1, submissions));
  }

  private static Arbitrary<Duration> durations(Duration min, Duration max) {
    return Arbitraries.longs().between(min.toMillis(), max.toMillis()).map(Duration::ofMillis);
  }
}
