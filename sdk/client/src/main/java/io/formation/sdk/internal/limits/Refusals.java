package io.formation.sdk.internal.limits;

/**
 * What refusals say of a limit: the share of recent answers refused, as the last cut's evidence and
 * as it is; the noise's share; and what came back since the last cut.
 */
final class Refusals {
  /** Answers the noise's share is averaged over, and the most its estimate counts. */
  private static final double NOISE_ANSWERS = 1_000;

  /** How far past twice its noise the refused share rises, once a limit was found, past it. */
  private static final double PROBE_MARGIN = 0.02;

  /** Seconds over which answers are counted to tell whether a refusal has evidence around it. */
  private static final int EVIDENCE_SECONDS = 10;

  // Answers and refusals over the last EVIDENCE_SECONDS.
  private final Lately lately;
  private double evidence;
  private double recent;
  private double noise;
  private double noiseAnswers;
  // Answered and refused since the last cut; whether the origin paused since.
  private long answered;
  private long refused;
  private boolean paused;

  /**
   * An answer came back, refused or not, weighing {@code weight} of the recent ones; whether it
   * measures the noise, unless refusals past a fifth of the answers show a limit's.
   */
  void count(long now, boolean refusal, double weight, boolean measuresNoise) {
    lately.count(now);
    int one = refusal ? 1 : 0;
    if (refusal) {
      refused++;
    } else {
      answered++;
    }
    evidence += (one - evidence) * weight;
    recent += (one - recent) * weight;
    if (measuresNoise && evidence <= AdaptiveRate.NOISE_SHARE) {
      // The mean of the first answers, then of about the last thousand.
      noiseAnswers++;
      noise += (one - noise) / Math.min(noiseAnswers, NOISE_ANSWERS);
    }
  }

  Refusals(long now) {
    this.lately = new Lately(EVIDENCE_SECONDS, now);
  }

  /**
   * Whether a refusal speaks for every call: most recent answers are refused, or too few came back
   * lately, from {@code instances} sharing the limit, to tell a limit from noise.
   */
  boolean speak(long now, int instances) {
    return recent > AdaptiveRate.PAUSE_SHARE
        || lately.total(now) * instances < AdaptiveRate.MIN_EVIDENCE;
  }

  /** The share of recent answers refused. */
  double recent() {
    return recent;
  }

  /**
   * Whether refusals show a limit: past a fifth of recent answers, or once one was found, past
   * twice the noise and two points.
   */
  boolean showLimit(boolean learned) {
    return evidence
        > (learned
            ? Math.min(AdaptiveRate.NOISE_SHARE, 2 * noise() + PROBE_MARGIN)
            : AdaptiveRate.NOISE_SHARE);
  }

  /**
   * The noise's share as the plus-four estimate: two refusals in four answers more than measured,
   * so that a few answers read as much noise and many as what they measured.
   */
  private double noise() {
    double measured = Math.min(noiseAnswers, NOISE_ANSWERS);
    return (noise * measured + 2) / (measured + 4);
  }

  /**
   * What the service answered a second over the {@code nanos} since the last cut, if it was {@code
   * measured} (a guess's climb is no limit) and more than a fifth of what came back was refused (a
   * limit's share), enough were answered and no pause came between: past its limit, a service
   * answers at the limit's own rate, which the smoothed windows lag. NaN otherwise.
   */
  double limitSinceCut(long nanos, boolean measured) {
    boolean limit = refused > AdaptiveRate.NOISE_SHARE * (answered + refused);
    return measured
            && limit
            && !paused
            && answered >= AdaptiveRate.MIN_EVIDENCE
            && nanos > 0
            && nanos < AdaptiveRate.CLIMB_SECONDS * 1e9
        ? answered * 1e9 / nanos
        : Double.NaN;
  }

  /** The service changed: its noise is measured again from the next answers. */
  void forgetNoise() {
    noise = 0;
    noiseAnswers = 0;
  }

  /** The origin paused: what comes back after measures no rate since the cut. */
  void paused() {
    paused = true;
  }

  /**
   * A cut: a further one needs refusals of what goes at the new rate, as the old rate's would cut
   * again and again at a low rate, whose answers take long to outweigh them.
   */
  void cut() {
    evidence = noise;
    answered = 0;
    refused = 0;
    paused = false;
  }
}
