package io.formation.sdk.internal.time;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The SDK's {@link Sleeper} made of two method references, so that any test's time plugs in: {@code
 * TestSleepers.of(time::sleep, time::delay)}.
 */
public final class TestSleepers {
  private TestSleepers() {}

  /** A blocking wait, as {@link Sleeper#sleep}. */
  @FunctionalInterface
  public interface Sleep {
    void sleep(Duration duration) throws InterruptedException;
  }

  /**
   * {@return a sleeper that blocks with {@code sleep} and waits without a thread with {@code
   * delay}}
   */
  public static Sleeper of(Sleep sleep, Function<Duration, CompletableFuture<Void>> delay) {
    return new Sleeper() {
      @Override
      public void sleep(Duration duration) throws InterruptedException {
        sleep.sleep(duration);
      }

      @Override
      public CompletableFuture<Void> delay(Duration duration) {
        return delay.apply(duration);
      }
    };
  }
}
