package io.formation.sdk.internal.time;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/** The client's time, passed once: wall clock, ticker, sleeper, random. */
public record Time(Clock clock, Ticker ticker, Sleeper sleeper, DoubleSupplier random) {
  /** A duration this long or longer means no deadline: no arithmetic on it overflows. */
  public static final Duration FOREVER = Duration.ofDays(36_500);

  /** The ticker reading of no deadline. */
  public static final long NEVER = Long.MAX_VALUE;

  /** The JVM's monotonic clock, the only reader of {@code System.nanoTime()}. */
  public static final Ticker SYSTEM_TICKER = new SystemTicker();

  /** {@return the duration, at most {@link #FOREVER}} */
  public static Duration capped(Duration duration) {
    return isForever(duration) ? FOREVER : duration;
  }

  public static boolean isForever(Duration duration) {
    return duration.compareTo(FOREVER) >= 0;
  }

  /** {@return the reading {@code duration} after {@code reading}; {@link #NEVER} for forever} */
  public static long after(long reading, Duration duration) {
    return isForever(duration) ? NEVER : reading + duration.toNanos();
  }

  /** {@return the nanoseconds from {@code now} to the deadline; {@code Long.MAX_VALUE} for none} */
  public static long left(long deadline, long now) {
    return deadline == NEVER ? Long.MAX_VALUE : deadline - now;
  }

  /** {@return the time from {@code now} to the reading; {@link #FOREVER} until {@link #NEVER}} */
  public static Duration between(long now, long reading) {
    return reading == NEVER ? FOREVER : Duration.ofNanos(reading - now);
  }

  public long now() {
    return ticker.nanoTime();
  }

  /** {@return a random number from 0 to 1} */
  public double draw() {
    return random.getAsDouble();
  }

  /** The JVM's random, per thread. */
  public static final DoubleSupplier THREAD_RANDOM = new ThreadRandom();

  private static final class ThreadRandom implements DoubleSupplier {
    @Override
    public double getAsDouble() {
      return ThreadLocalRandom.current().nextDouble();
    }
  }

  private static final class SystemTicker implements Ticker {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }
  }
}
