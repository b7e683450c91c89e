package io.formation.sandbox;

import io.formation.sandbox.SandboxRequest.Fault;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

/** Decides, request by request and reproducibly, which fault (if any) a request meets. */
final class FaultPlan {

  /** What happens to one request. */
  record Decision(Fault fault, boolean processBeforeDrop, long retryAfterSeconds) {
    static final Decision NONE = new Decision(null, true, 0);
  }

  private final Faults faults;
  private final Clock clock;
  private final Random random;
  private Instant rateLimitedUntil;

  FaultPlan(Faults faults, Clock clock) {
    this.faults = faults;
    this.clock = clock;
    this.random = new Random(faults.seed());
  }

  synchronized Decision decide(Instant now) {
    if (!faults.any()) {
      return Decision.NONE;
    }
    // Two draws for every request, whatever happens to it, so the fate of the n-th request depends
    // only on the seed and n, not on the clock or on earlier outcomes.
    double draw = random.nextDouble();
    boolean processBeforeDrop = random.nextBoolean();
    if (rateLimitedUntil != null && now.isBefore(rateLimitedUntil)) {
      return new Decision(
          Fault.RATE_LIMITED, false, seconds(Duration.between(now, rateLimitedUntil)));
    }
    if (draw < faults.rateLimited()) {
      rateLimitedUntil = now.plus(faults.retryAfter());
      return new Decision(Fault.RATE_LIMITED, false, seconds(faults.retryAfter()));
    }
    if (draw < faults.rateLimited() + faults.unavailable()) {
      return new Decision(Fault.UNAVAILABLE, false, 0);
    }
    if (draw < faults.rateLimited() + faults.unavailable() + faults.dropped()) {
      return new Decision(Fault.DROPPED, processBeforeDrop, 0);
    }
    return Decision.NONE;
  }

  Instant now() {
    return clock.instant();
  }

  /** Whole seconds, rounded up: a client waiting the advertised time must not come back early. */
  private static long seconds(Duration duration) {
    long seconds = duration.getSeconds();
    return duration.getNano() > 0 ? seconds + 1 : seconds;
  }
}
