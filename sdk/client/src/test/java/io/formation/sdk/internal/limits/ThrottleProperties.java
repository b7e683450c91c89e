package io.formation.sdk.internal.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.TestFailures;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.CallOptions;
import io.formation.sdk.internal.transport.Outcome;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import okhttp3.Headers;
import okhttp3.HttpUrl;

/**
 * The throttle driven by random sequences of answers from a service that refuses a steady share of
 * requests whatever the rate, at random offered rates far below any limit. Whatever the sequence,
 * the rate is never cut: a steady share of at most 5% averaged over {@code SHARE_ANSWERS} answers
 * stays under {@link AdaptiveRate#NOISE_SHARE} by more than six standard deviations, so the rate
 * ends no lower than what the caller offered.
 */
class ThrottleProperties {
  static final HttpUrl SETS = HttpUrl.get("https://api.example.com/v1/document_sets");

  record Traffic(double perSecond, double share, int retryAfter, int seconds, long seed) {}

  @Property(tries = 500)
  void refusalsAtASteadyShareNeverCutTheRateBelowWhatIsOffered(
      @ForAll("steadyNoise") Traffic traffic) {
    FakeTime clock = FakeTime.manual();
    Random random = new Random(traffic.seed());
    Time time =
        new Time(clock, clock::nanoTime, TestSleepers.of(clock::sleep, clock::delay), () -> 1.0);
    RetryPolicy policy = new RetryPolicy(2, Duration.ofMinutes(1), Duration.ZERO, time);
    Throttle throttle = new Throttle(time, policy, (Port) TestFailures.INSTANCE, 0, 0);
    long gap = (long) (1e9 / traffic.perSecond());
    long end = clock.nanoTime() + Duration.ofSeconds(traffic.seconds()).toNanos();
    List<CompletableFuture<IOException>> waiting = new ArrayList<>();
    int held = 0;

    while (clock.nanoTime() < end) {
      CompletableFuture<IOException> turn = ThrottleTest.go(throttle, create());
      if (!turn.isDone()) {
        held++;
      }
      waiting.add(turn);
      long now = clock.nanoTime();
      waiting.removeIf(
          going -> {
            if (!going.isDone()) {
              return false;
            }
            boolean refused = random.nextDouble() < traffic.share();
            throttle.observe(create(), refused ? refusal(traffic) : answer(200, null), now);
            return true;
          });
      clock.advance(Duration.ofNanos(gap));
    }

    assertThat(throttle.rate(SETS)).isGreaterThanOrEqualTo(traffic.perSecond());
    if (traffic.retryAfter() == 0) {
      // "Go on": no call of the client waits for another's refusal.
      assertThat(held).isZero();
    }
  }

  @Provide
  Arbitrary<Traffic> steadyNoise() {
    return Combinators.combine(
            Arbitraries.doubles().between(2, 500),
            Arbitraries.doubles().between(0.001, 0.05).ofScale(4),
            Arbitraries.of(0, 1),
            Arbitraries.integers().between(5, 60),
            Arbitraries.longs())
        .as(Traffic::new);
  }

  static Outcome refusal(Traffic traffic) {
    return answer(429, Integer.toString(traffic.retryAfter()));
  }

  static Outcome answer(int status, String retryAfter) {
    Headers headers = retryAfter == null ? Headers.of() : Headers.of("Retry-After", retryAfter);
    return new Outcome(status, headers, new byte[0], false, null, true, false, null);
  }

  static ApiRequest create() {
    return new ApiRequest("POST", SETS, new byte[0], "*/*", CallOptions.NONE);
  }
}
