package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Log;
import io.formation.sdk.internal.limits.Fleet;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A partner's {@link SharedLimit} as the limits use it: its failures logged, never thrown. */
final class SharedLimits implements Fleet {
  private final SharedLimit shared;
  private final Log log;
  private volatile boolean failing;

  SharedLimits(SharedLimit shared, Log log) {
    this.shared = shared;
    this.log = log;
  }

  /** The thread that exchanges: one, so a hung exchange holds up only the next. */
  static ExecutorService exchanges() {
    return Executors.newSingleThreadExecutor(
        task -> {
          Thread thread = new Thread(task, "formation-shared-limit");
          thread.setDaemon(true);
          return thread;
        });
  }

  @Override
  public Known exchange(String origin, Duration cutAgo, double answeredPerSecond) {
    SharedLimit.Fleet fleet;
    try {
      SharedLimit.News news = new SharedLimit.News(Optional.ofNullable(cutAgo), answeredPerSecond);
      fleet = shared.exchange(origin, news);
      if (fleet == null) {
        throw Port.illegalState("SharedLimit.exchange returned null");
      }
    } catch (Exception | LinkageError e) {
      if (!failing) {
        failing = true;
        String why = "the limit shared for %s cannot be reached; this instance goes on alone: %s";
        log.log(Level.WARNING, why.formatted(origin, e), null);
      }
      return null;
    }
    if (failing) {
      failing = false;
      log.log(Level.INFO, "the limit shared for " + origin + " is reached again", null);
    }
    return new Known(fleet.lastCutAgo().orElse(null), fleet.instances(), fleet.answeredPerSecond());
  }
}
