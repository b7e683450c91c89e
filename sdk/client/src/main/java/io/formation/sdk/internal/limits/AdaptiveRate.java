package io.formation.sdk.internal.limits;

/** One origin's adaptive rate and token bucket, as arithmetic over ticker readings. */
final class AdaptiveRate {
  /** The share of the measured rate kept on a refusal, as CUBIC's beta. */
  static final double BETA = 0.7;

  /** Seconds a cut takes to climb back, whatever the rate. */
  static final double CLIMB_SECONDS = 1.0;

  /** The share of the rate cut from that a measured cut climbs back to and holds. */
  static final double HOLD_SHARE = 0.9;

  /** Seconds a learned rate is held before it is probed: capacity freed elsewhere is found soon. */
  static final double HOLD_SECONDS = 1.0;

  /** Seconds in which the probing rate doubles, as TCP's slow start. */
  static final double PROBE_DOUBLING_SECONDS = 0.7;

  /** The slow answers' times a probe's doubling takes at least. */
  private static final double PROBE_ANSWER_TIMES = 8;

  /** The longest a probe's doubling takes, however slow the answers: a raised limit is found. */
  private static final double SLOWEST_PROBE_DOUBLING_SECONDS = 3;

  /** The most a probe doubles: past a billion times, an idle instance's rate stays a number. */
  private static final double MAX_PROBE_DOUBLINGS = 30;

  /** How far past the rate last learned a probe counts for a cut's floor. */
  private static final double FLOOR_REACH = 16;

  /** The lowest learned rate, requests per second: a wait always gets a turn. */
  static final double MIN_RATE = 1.0;

  /** The share of a second of the learned rate that may go at once. */
  private static final double LEARNED_BURST_SECONDS = 0.01;

  /** The measuring window; a refusal within one of the last cut cuts no more. */
  static final long MEASURE_WINDOW_NANOS = 100_000_000L;

  /** The share of refused, or of unanswered, requests up to which refusals are noise. */
  static final double NOISE_SHARE = 0.2;

  /** Answers the refused share is averaged over: enough that a steady few percent stays under. */
  static final double SHARE_ANSWERS = 100;

  /** The refused share above which refusals speak for every call: the limit is far exceeded. */
  static final double PAUSE_SHARE = 0.5;

  /** Recent answers below which a refusal's share cannot tell a limit from noise. */
  static final double MIN_EVIDENCE = 20;

  private final double budget;
  private final int budgetBurst;
  private double ceiling;
  private double ceilingBurst;
  private long lastSent;
  private long firstSent;

  private boolean learned;
  private double lastMaxRate;
  private long lastCut;
  // The last cut this instance's own refusals called for, and the last of another's it followed
  // as this clock dates it; before any, a time too old to matter.
  private long ownCut;
  private long followedAt;
  // The climb from the last cut: from when, how long, to which share of lastMaxRate, then held.
  private long climbFrom;
  private double climb;
  private double heldShare;
  private double hold;

  // The rate last held through its hold, with no cut, and probed past; 0 before any, or once a
  // limit's share was refused of what went out at or under it.
  private double clean;
  private final Meter sent = new Meter();
  private final Meter answers = new Meter();

  private final Refusals refusals;
  private boolean spoke;
  private final Unanswered unanswered;

  private double tokens;
  private long refilled;
  // The live instances sharing the limit, each seeing about its share of the answers, and the
  // rate they were answered at together, as last told (0 unknown), this instance's part of it
  // then; whether news of other instances came.
  private int instances = 1;
  private double fleetAnswered;
  private double ownTold;
  private boolean heardOfOthers;

  AdaptiveRate(double perSecond, int burst, long now) {
    this.budget = perSecond;
    this.budgetBurst = burst;
    this.ceiling = perSecond > 0 ? perSecond : Double.POSITIVE_INFINITY;
    this.ceilingBurst = perSecond > 0 ? burst : Double.POSITIVE_INFINITY;
    // A budget starts full; a learned rate starts empty, at the refusal that teaches it.
    this.tokens = perSecond > 0 ? burst : 0;
    this.refilled = now;
    this.unanswered = new Unanswered(now);
    this.refusals = new Refusals(now);
    this.ownCut = now - 2 * (long) (CLIMB_SECONDS * 1e9);
    this.followedAt = ownCut;
  }

  /** Whether calls wait for tokens at all: after a refusal, or under a budget. */
  boolean isActive() {
    return learned || ceiling != Double.POSITIVE_INFINITY;
  }

  /** A request went on the wire: one waiting in OkHttp's queue is not yet sent. */
  void sent(long now) {
    if (!sent.isStarted()) {
      firstSent = now;
    }
    sent.count(now);
    lastSent = now;
    unanswered.sent(now);
  }

  /** An answer other than a refusal came. */
  void answered(long now, long sentAt) {
    answers.count(now);
    returned(now, sentAt, false);
  }

  /** A request came back failed, or with an answer that says nothing of a limit. */
  void failed(long now, long sentAt) {
    unanswered.returned(now, sentAt);
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
    returned(now, sentAt, true);
    spoke = refusals.speak(now, instances);
    if (!showsLimit() || learned && sentAt - lastCut < MEASURE_WINDOW_NANOS) {
      return false;
    }
    // Under a rate held clean a few refusals are noise; a limit's share shows a limit under it.
    if (learned && rate(now) <= clean) {
      if (refusals.recent() <= NOISE_SHARE) {
        return false;
      }
      if (sentAt - lastCut >= 0 && rate(sentAt) <= clean) {
        clean = 0;
      }
    }
    cut(now);
    ownCut = now;
    return true;
  }

  /**
   * Another instance sharing the limit cut at {@code at}: this one cuts with it once (a cut told
   * again, dated in this clock's future too, is within a window of where it was), unless the cut is
   * stale, within a window of its last, or came while this one climbs back from a cut of its own
   * refusals, as others find the same excess later than it; whether it cut.
   */
  boolean cutWithFleet(long at, long now) {
    boolean followed = Math.abs(at - followedAt) < MEASURE_WINDOW_NANOS;
    boolean same = learned && (at - lastCut < MEASURE_WINDOW_NANOS || isFresh(ownCut, at));
    if (followed || same || !isFresh(at, now)) {
      return false;
    }
    followedAt = at;
    cut(now);
    return true;
  }

  /**
   * What the instances sharing the limit said: how many are live, and how many answers a second
   * they got together, this instance's {@code own} among them. A budget is theirs, split evenly; a
   * learned rate is this instance's share, which grows as others stop and shrinks as others start.
   */
  void fleet(int live, double answeredPerSecond, double own) {
    live = Math.max(1, live);
    // What a fleet cannot know, or tells wrong, is unknown.
    fleetAnswered = Double.isFinite(answeredPerSecond) ? Math.max(0, answeredPerSecond) : 0;
    ownTold = own;
    // What this instance held clean alone says nothing of its share.
    if (!heardOfOthers && live > 1) {
      clean = 0;
    }
    if (!heardOfOthers && learned && live > 1 && fleetAnswered > 0) {
      // Learned before news of others, from what this instance got beside those it did not know.
      lastMaxRate = fleetAnswered / live;
    } else {
      lastMaxRate *= (double) instances / live;
      clean *= (double) instances / live;
    }
    heardOfOthers |= live > 1;
    instances = live;
    if (budget > 0) {
      ceiling = budget / live;
      ceilingBurst = Math.max(1, budgetBurst / live);
      tokens = Math.min(tokens, ceilingBurst);
    }
  }

  /** The fleet could not be reached: its answers are unknown, its count the last told. */
  void fleetUnreachable() {
    fleetAnswered = 0;
  }

  /** Answers a second lately, for the fleet's sum; 0 before any. */
  double answeredPerSecond(long now) {
    return answers.lately(now);
  }

  /** Whether a cut at {@code at} still matters: one older has climbed back. */
  static boolean isFresh(long at, long now) {
    return now - at < CLIMB_SECONDS * 1e9;
  }

  boolean isLearned() {
    return learned;
  }

  /** Whether a request went out within {@code nanos} of {@code now}. */
  boolean sentWithin(long nanos, long now) {
    return sent.isStarted() && now - lastSent < nanos;
  }

  /** The last cut, a ticker reading; meaningless before the first. */
  long lastCut() {
    return lastCut;
  }

  private void cut(long now) {
    boolean wasActive = isActive();
    // When far more is sent than the service allows, what it answered is the better guess.
    double answered = answers.rate(now, Double.POSITIVE_INFINITY);
    double base = Math.min(sent.rate(now, MIN_RATE), answered);
    double limit = refusals.limitSinceCut(now - lastCut, hold > 0);
    if (instances > 1 && fleetAnswered > 0) {
      // Shared: an even share of what the fleet was answered, whatever this instance's share, and
      // of what this instance's own answers grew by since it told them.
      double grown = Math.max(0, answeredPerSecond(now) - ownTold);
      base = (fleetAnswered + grown) / instances;
      // The fleet's answers, told lately, lag a limit far exceeded as this instance's own do.
      if (limit < answered) {
        base *= limit / answered;
      }
    } else if (!Double.isNaN(limit)) {
      base = Math.min(base, limit);
    } else if (learned) {
      // Sending far under a measured rate, as from a pause, says little: one cut takes that rate
      // down by BETA twice at most. A guess has no floor, nor a probe run on while little went.
      double allowed = rate(now);
      double floor = BETA * Math.min(allowed, FLOOR_REACH * lastMaxRate);
      base = Math.min(allowed, hold > 0 ? Math.max(base, floor) : base);
    }
    base = Math.max(base, MIN_RATE);
    // A cut as the rate probes past its hold: the rate held was clean.
    if (learned && afterClimb(now) >= hold) {
      clean = heldShare * lastMaxRate;
    }
    cutFrom(base);
    // A cut before a climb's length of sending is a guess, which a hold could keep far under the
    // limit: a ramp from nothing measures no rate held against it.
    boolean measured =
        (sent.isMeasured() || answers.isMeasured()) && now - firstSent >= CLIMB_SECONDS * 1e9;
    climb = CLIMB_SECONDS;
    heldShare = measured ? HOLD_SHARE : 1;
    hold = measured ? HOLD_SECONDS : 0;
    lastCut = now;
    climbFrom = now;
    learned = true;
    refusals.cut();
    if (!wasActive) {
      refilled = now;
    }
    tokens = wasActive ? Math.min(tokens, capacity(rate(now))) : 0;
  }

  /** Cuts from {@code base}; a limit under 70% of the clean rate moved, and its noise with it. */
  private void cutFrom(double base) {
    lastMaxRate = base;
    if (base < BETA * clean) {
      clean = 0;
      refusals.forgetNoise();
    }
  }

  /** Whether refusals, or requests long unanswered, show a limit's share rather than noise's. */
  private boolean showsLimit() {
    return refusals.showLimit(learned) || unanswered.share() > NOISE_SHARE;
  }

  /** Whether an answer measures the noise: sent past the last cut, as the rate climbs or holds. */
  private boolean measuresNoise(long now, long sentAt) {
    return learned && afterClimb(now) < hold && sentAt - lastCut >= MEASURE_WINDOW_NANOS;
  }

  /** Seconds since the climb from the last cut ended; negative while it climbs. */
  private double afterClimb(long now) {
    return Math.max(0, now - climbFrom) / 1e9 - climb;
  }

  /** Whether the last refusal speaks for every call: most are refused, or too few answers tell. */
  boolean speaksForOrigin() {
    return spoke;
  }

  private void returned(long now, long sentAt, boolean refused) {
    unanswered.returned(now, sentAt);
    // Each instance sees its share of the fleet's answers, which weigh as many as the fleet's.
    refusals.count(
        now, refused, Math.min(1, instances / SHARE_ANSWERS), measuresNoise(now, sentAt));
  }

  /**
   * Paused until then: a cut's climb, or one under way, starts again then; a pause too soon for a
   * further cut, a limit's share refused since a measured cut, takes it to what was answered since.
   */
  void paused(long now, long until, boolean cut) {
    if ((cut || afterClimb(now) < 0) && learned && hold > 0 && until - climbFrom > 0) {
      climbFrom = until;
    }
    double limit = refusals.limitSinceCut(now - lastCut, hold > 0);
    if (limit < lastMaxRate) {
      cutFrom(Math.max(limit, MIN_RATE));
      climbFrom = until - climbFrom > 0 ? until : climbFrom;
    }
    refusals.paused();
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
      rate = held * Math.pow(2, Math.min(MAX_PROBE_DOUBLINGS, (t - hold) / probeDoublingSeconds()));
    }
    return Math.min(ceiling, Math.max(MIN_RATE, rate));
  }

  /** A probe doubles no faster than its refusals can come back to stop it. */
  private double probeDoublingSeconds() {
    double answers =
        Math.min(SLOWEST_PROBE_DOUBLING_SECONDS, PROBE_ANSWER_TIMES * unanswered.latency());
    return Math.max(PROBE_DOUBLING_SECONDS, answers);
  }

  /** Seconds until the bucket holds {@code turns} tokens at the rate now; after a refill. */
  double secondsFor(double turns, long now) {
    return Math.max(0, turns - tokens) / rate(now);
  }

  /** Seconds in which a learned rate climbs back, holds and doubles; a budget never rises. */
  double risesWithin(long now) {
    return learned && rate(now) < ceiling
        ? climb + hold + probeDoublingSeconds()
        : Double.POSITIVE_INFINITY;
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
}
