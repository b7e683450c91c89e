package io.formation.examples.web;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Ends a test that hangs, as JUnit's {@code @Timeout} does on the test's own thread, after a time
 * derived from the test's {@link Patience} rather than a fixed one: long enough for {@link #WAITS}
 * waits at their longest, which no test that makes progress needs. A guard, not a measure of speed.
 *
 * <pre>
 * {@code @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);}
 * </pre>
 */
final class HangGuard implements InvocationInterceptor {
  /** How many waits at their longest a test may take in all before it is taken to hang. */
  static final int WAITS = 4;

  private static final ScheduledExecutorService ALARMS =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "hang-guard");
            thread.setDaemon(true);
            return thread;
          });

  private final Duration limit;

  private HangGuard(Duration limit) {
    this.limit = limit;
  }

  /** A guard for tests whose every wait is bounded by {@code patience}. */
  static HangGuard of(Duration patience) {
    return new HangGuard(patience.multipliedBy(WAITS));
  }

  /** How long a test may run before it is taken to hang. */
  Duration limit() {
    return limit;
  }

  @Override
  public void interceptTestMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext,
      ExtensionContext extensionContext)
      throws Throwable {
    Thread test = Thread.currentThread();
    AtomicBoolean rang = new AtomicBoolean();
    ScheduledFuture<?> alarm =
        ALARMS.schedule(
            () -> {
              rang.set(true);
              test.interrupt();
            },
            limit.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      invocation.proceed();
    } catch (Throwable failure) {
      if (rang.get()) {
        throw new AssertionError(hung(extensionContext), failure);
      }
      throw failure;
    } finally {
      alarm.cancel(false);
      if (rang.get()) {
        Thread.interrupted();
      }
    }
    if (rang.get()) {
      throw new AssertionError(hung(extensionContext));
    }
  }

  private String hung(ExtensionContext context) {
    return context.getDisplayName()
        + " still ran after "
        + limit
        + " ("
        + WAITS
        + " waits at their longest)";
  }
}
