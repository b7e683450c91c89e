package io.formation.sdk.internal.limits;

/** One origin's adaptive rate and token bucket, as arithmetic over ticker readings. */
final class AdaptiveRate {
  /** The share of the measured rate kept on a refusal, as CUBIC's beta. */
  static final double BETA = 0.7;

  /** Seconds a measured cut takes to climb back, whatever the rate. */
  static final double CLIMB_SECONDS = 2.0;

  /** AWS's CUBIC constant C, for the climb after a cut that was a guess. */
  static final double AWS_SCALE = 0.4;

  /** The share of the rate cut from that a measured cut climbs back to and holds. */
  static final double HOLD_SHARE = 0.9;

  /** Seconds a learned rate is held before it is probed: capacity freed elsewhere is found soon. */
  static final double HOLD_SECONDS = 3.0;

  /** Seconds in which the probing rate doubles, as TCP's slow start. */
  static final double PROBE_DOUBLING_SECONDS = 1.0;

  /** The lowest learned rate, requests per second: a wait always gets a turn. */
  static final double MIN_RATE = 1.0;

  /** The share of a second of the learned rate that may go at once. */
  private static final double LEARNED_BURST_SECONDS = 0.01;

  /** The measuring window; a refusal within one of the last cut cuts no more. */
  static final long MEASURE_WINDOW_NANOS = 100_000_000L;

  /** The weight of the newest window in a measured rate. */
  private static final double SMOOTH = 0.8;

  /** The share of refused, or of unanswered, requests up to which refusals are noise. */
  static final double NOISE_SHARE = 0.2;

  /** Answers the refused share is averaged over: enough that a steady few percent stays under. */
  private static final double SHARE_ANSWERS = 100;

  /** Answers the noise's share is averaged over, while the rate is steady. */
  private static final double NOISE_ANSWERS = 1_000;

  /** How far past twice its noise the refused share rises, once a limit was found, past it. */
  private static final double PROBE_MARGIN = 0.02;

  /** The refused share above which refusals speak for every call: the limit is far exceeded. */
  static final double PAUSE_SHARE = 0.5;

  /** Recent answers below which a refusal's share cannot tell a limit from noise. */
  private static final double MIN_EVIDENCE = 20;

  /** Seconds the unanswered share looks back. */
  private static final double UNANSWERED_SECONDS = 10;

  private final double ceiling;
  private final double ceilingBurst;

  private boolean learned;
  private double lastMaxRate;
  private long lastCut;
  // The climb from the last cut: from when, how long, to which share of lastMaxRate, then held.
  private long climbFrom;
  private double climb;
  private double heldShare;
  private double hold;

  private final Meter sent = new Meter();
  private final Meter answers = new Meter();

  // The refused share of recent answers; what went out a window ago or more, and what came back,
  // fading over time; what went out since, by window.
  private double refusedShare;
  private double noiseShare;
  private boolean spoke;
  private double sentEarlier;
  private double returnedRecently;
  private long faded;
  private long windowStart;
  private int sentLastWindow;
  private int sentThisWindow;

  private double tokens;
  private long refilled;

  AdaptiveRate(double perSecond, int burst, long now) {
    this.ceiling = perSecond > 0 ? perSecond : Double.POSITIVE_INFINITY;
    this.ceilingBurst = perSecond > 0 ? burst : Double.POSITIVE_INFINITY;
    // A budget starts full; a learned rate starts empty, at the refusal that teaches it.
    this.tokens = perSecond > 0 ? burst : 0;
    this.refilled = now;
    this.faded = now;
    this.windowStart = now;
  }

  /** Whether calls wait for tokens at all: after a refusal, or under a budget. */
  boolean isActive() {
    return learned || ceiling != Double.POSITIVE_INFINITY;
  }

  /** A request went on the wire: one waiting in OkHttp's queue is not yet sent. */
  void sent(long now) {
    sent.count(now);
    fade(now);
    sentThisWindow++;
  }

  /** An answer other than a refusal came. */
  void answered(long now) {
    answers.count(now);
    returned(now, 0);
  }

  /** A request came back failed, or with an answer that says nothing of a limit. */
  void failed(long now) {
    fade(now);
    returnedRecently++;
  }

  /** Whether a request may go now; after a refill. */
  boolean hasToken() {
    return tokens >= 1;
  }

  /** A turn goes now, on a token. */
  void take() {
    tokens--;
  }

  /**
   * A refusal: cuts the rate when it shows a limit, once for the requests sent up to a window after
   * the last cut; whether it cut.
   */
  boolean refused(long now, long sentAt) {
    returned(now, 1);
    spoke = refusedShare > PAUSE_SHARE || returnedRecently < MIN_EVIDENCE;
    if (!showsLimit(now) || learned && sentAt - lastCut < MEASURE_WINDOW_NANOS) {
      return false;
    }
    boolean wasActive = isActive();
    // When far more is sent than the service allows, what it answered is the better guess.
    double base = Math.min(sent.rate(now, MIN_RATE), answers.rate(now, Double.POSITIVE_INFINITY));
    if (learned) {
      // Sending far under a measured rate, as while calls resume from a pause, says little of the
      // limit: one cut takes that rate down by BETA twice at most. A guessed rate has no floor.
      double allowed = rate(now);
      base = Math.min(allowed, hold > 0 ? Math.max(base, BETA * allowed) : base);
    }
    base = Math.max(base, MIN_RATE);
    lastMaxRate = base;
    // Less than a window measured is a guess, which a hold could keep far under the limit.
    boolean measured = sent.isMeasured() || answers.isMeasured();
    climb = measured ? CLIMB_SECONDS : Math.cbrt(base * (1 - BETA) / AWS_SCALE);
    heldShare = measured ? HOLD_SHARE : 1;
    hold = measured ? HOLD_SECONDS : 0;
    lastCut = now;
    climbFrom = now;
    learned = true;
    // A further cut needs refusals of what goes at the new rate: those of the old one would cut
    // again and again at a low rate, whose answers take long to outweigh them.
    refusedShare = noiseShare;
    if (!wasActive) {
      tokens = 0;
      refilled = now;
    } else {
      tokens = Math.min(tokens, capacity(rate(now)));
    }
    return true;
  }

  /**
   * Whether the service answers measurably less than it is asked: a limit refuses a growing share
   * as the rate rises past it, or leaves unanswered what went out long enough ago, where noise
   * refuses a steady few whatever the rate.
   */
  private boolean showsLimit(long now) {
    double unanswered = 1 - returnedRecently / Math.max(sentEarlier, 1);
    // Once a limit was found, refusals past the noise show the rate is over it again.
    double refused = learned ? Math.min(NOISE_SHARE, 2 * noiseShare + PROBE_MARGIN) : NOISE_SHARE;
    return refusedShare > refused || unanswered > NOISE_SHARE;
  }

  /** Whether the rate is steady: before any limit was found, or held. */
  private boolean steady(long now) {
    if (!learned) {
      return true;
    }
    double t = afterClimb(now);
    return t >= 0 && t < hold;
  }

  /** Seconds since the climb from the last cut ended; negative while it climbs. */
  private double afterClimb(long now) {
    return Math.max(0, now - climbFrom) / 1e9 - climb;
  }

  /** Whether the last refusal speaks for every call: most are refused, or too few answers tell. */
  boolean speaksForOrigin() {
    return spoke;
  }

  private void returned(long now, int refused) {
    refusedShare += (refused - refusedShare) / SHARE_ANSWERS;
    // Refusals past a fifth of the answers are a limit's, not noise.
    if (steady(now) && refusedShare <= NOISE_SHARE) {
      noiseShare += (refused - noiseShare) / NOISE_ANSWERS;
    }
    fade(now);
    returnedRecently++;
  }

  private void fade(long now) {
    long elapsed = now - faded;
    if (elapsed > 0) {
      double kept = Math.exp(-elapsed / 1e9 / UNANSWERED_SECONDS);
      sentEarlier *= kept;
      returnedRecently *= kept;
      faded = now;
    }
    // A request counts as unanswered only once a whole window old: a younger one may be in flight.
    long windows = (now - windowStart) / MEASURE_WINDOW_NANOS;
    if (windows > 0) {
      sentEarlier += sentLastWindow + (windows > 1 ? sentThisWindow : 0);
      sentLastWindow = windows > 1 ? 0 : sentThisWindow;
      sentThisWindow = 0;
      windowStart += windows * MEASURE_WINDOW_NANOS;
    }
  }

  /** The origin is paused until then: nothing is learned meanwhile, so the climb starts then. */
  void pausedUntil(long until) {
    if (learned && hold > 0 && until - climbFrom > 0) {
      climbFrom = until;
    }
  }

  /** The rate now, requests per second: the climb, the hold, then the probe, within the bounds. */
  double rate(long now) {
    if (!learned) {
      return ceiling;
    }
    double held = heldShare * lastMaxRate;
    double t = afterClimb(now);
    double rate;
    if (t < 0) {
      double left = t / climb;
      rate = held + (held - BETA * lastMaxRate) * left * left * left;
    } else if (t < hold) {
      rate = held;
    } else {
      rate = held * Math.pow(2, (t - hold) / PROBE_DOUBLING_SECONDS);
    }
    return Math.min(ceiling, Math.max(MIN_RATE, rate));
  }

  /** Seconds until the bucket holds {@code turns} tokens at the rate now; after a refill. */
  double secondsFor(double turns, long now) {
    return Math.max(0, turns - tokens) / rate(now);
  }

  /** Seconds of the rate now that the bucket's burst beyond one token is worth. */
  double burstSeconds(long now) {
    double rate = rate(now);
    return (capacity(rate) - 1) / rate;
  }

  void refill(long now) {
    long elapsed = now - refilled;
    if (elapsed > 0) {
      double rate = rate(now);
      tokens = Math.min(capacity(rate), tokens + elapsed * rate / 1e9);
      refilled = now;
    }
  }

  private double capacity(double rate) {
    return learned
        ? Math.min(ceilingBurst, Math.max(1, rate * LEARNED_BURST_SECONDS))
        : ceilingBurst;
  }

  /** Events per second over windows, smoothed across them, as AWS measures its sending rate. */
  private static final class Meter {
    private boolean started;
    private long start;
    private int count;
    private double smoothed;
    private boolean once;

    void count(long now) {
      if (!started) {
        started = true;
        start = now;
      }
      long elapsed = now - start;
      if (elapsed >= MEASURE_WINDOW_NANOS) {
        // A window twice its length had a quiet spell (a pause): it is not averaged in.
        if (elapsed < 2 * MEASURE_WINDOW_NANOS) {
          double newest = count * 1e9 / elapsed;
          smoothed = once ? SMOOTH * newest + (1 - SMOOTH) * smoothed : newest;
          once = true;
        }
        start = now;
        count = 0;
      }
      count++;
    }

    boolean isMeasured() {
      return once;
    }

    /** The smoothed rate, or the first window's so far; {@code unknown} before any count. */
    double rate(long now, double unknown) {
      if (once) {
        return smoothed;
      }
      return started ? count * 1e9 / Math.max(now - start, 1_000_000L) : unknown;
    }
  }
}
