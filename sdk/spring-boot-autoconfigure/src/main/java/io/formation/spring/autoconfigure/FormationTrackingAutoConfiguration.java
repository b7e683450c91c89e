package io.formation.spring.autoconfigure;

import static io.formation.spring.autoconfigure.PropertiesToBuilder.set;

import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.tracking.DatabaseLimit;
import io.formation.tracking.FormationTracker;
import io.formation.tracking.TrackingHandler;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configures a {@link FormationTracker} when formation-tracking is on the class path and the
 * application has a {@link DataSource} and a {@link TrackingHandler}: built from the {@link
 * FormationClient} bean and the {@code formation.tracking.*} properties ({@link
 * FormationProperties.Tracking}), started once the context is refreshed and closed when it stops.
 * {@code formation.tracking.enabled=false}, or a {@code FormationTracker} bean of the application's
 * own, turns it off.
 *
 * <p>The tracker keeps its own db-scheduler scheduler on its own table ({@value
 * FormationTracker#DEFAULT_TABLE} unless {@code formation.tracking.table-name} says otherwise), so
 * db-scheduler's Spring Boot starter, when present, runs beside it without either seeing the
 * other's tasks: the tracker's scheduler is not a bean and its task is not a {@code Task} bean.
 *
 * <p>The client shares its rate limit with the other instances through the same database ({@link
 * DatabaseLimit}, whose tables a shipped migration of their own creates), unless {@code
 * formation.tracking.shared-limit.enabled=false}. The limit, and so the client, is built after the
 * database's initialization (the application's Flyway, Liquibase or SQL scripts, and {@link
 * FormationTrackingFlywayAutoConfiguration}'s run): the client exchanges through it as it is built.
 */
@AutoConfiguration(
    after = FormationAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"
    })
@ConditionalOnClass(FormationTracker.class)
@ConditionalOnProperty(
    name = "formation.tracking.enabled",
    havingValue = "true",
    matchIfMissing = true)
@ConditionalOnBean({DataSource.class, TrackingHandler.class})
@ConditionalOnMissingBean(FormationTracker.class)
@ConditionalOnSingleCandidate(FormationClient.class)
public class FormationTrackingAutoConfiguration {
  /** Only Spring creates it. */
  FormationTrackingAutoConfiguration() {}

  // Closed by its lifecycle, not by the bean factory: closing twice would stop the scheduler twice.
  @Bean(destroyMethod = "")
  FormationTracker formationTracker(
      FormationClient client,
      DataSource dataSource,
      TrackingHandler handler,
      FormationProperties properties) {
    FormationProperties.Tracking tracking = properties.getTracking();
    FormationTracker.Builder builder = FormationTracker.builder(client, dataSource, handler);
    String prefix = "formation.tracking.";
    set(prefix + "table-name", tracking.getTableName(), builder::tableName);
    set(prefix + "threads", tracking.getThreads(), builder::threads);
    set(prefix + "polling-interval", tracking.getPollingInterval(), builder::pollingInterval);
    set(prefix + "pause-on-refusal", tracking.getPauseOnRefusal(), builder::pauseOnRefusal);
    set(
        prefix + "retry-after-failure",
        tracking.getRetryAfterFailure(),
        builder::retryAfterFailure);
    set(prefix + "instance-name", tracking.getInstanceName(), builder::instanceName);
    builder.pollOptions(pollOptions(tracking.getPoll()));
    return builder.build();
  }

  /** The client's limit, shared with the other instances in the tracker's database. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(
      name = "formation.tracking.shared-limit.enabled",
      havingValue = "true",
      matchIfMissing = true)
  static class SharedLimitConfiguration {
    // The client exchanges through it as it is built: after the migrations that make its tables.
    @Bean
    @DependsOnDatabaseInitialization
    DatabaseLimit formationSharedLimit(DataSource dataSource) {
      return DatabaseLimit.on(dataSource);
    }

    @Bean
    FormationClientBuilderCustomizer formationSharedLimitCustomizer(DatabaseLimit limit) {
      return builder -> builder.sharedLimit(limit);
    }
  }

  @Bean
  TrackerLifecycle formationTrackerLifecycle(FormationTracker formationTracker) {
    return new TrackerLifecycle(formationTracker);
  }

  /** The tracker's own defaults, changed where a {@code formation.tracking.poll.*} is set. */
  static PollOptions pollOptions(FormationProperties.Poll poll) {
    PollOptions.Builder options = FormationTracker.Builder.defaultPollOptions().newBuilder();
    String prefix = "formation.tracking.poll.";
    set(prefix + "initial-interval", poll.getInitialInterval(), options::initialInterval);
    set(prefix + "max-interval", poll.getMaxInterval(), options::maxInterval);
    set(prefix + "multiplier", poll.getMultiplier(), options::multiplier);
    set(prefix + "timeout", poll.getTimeout(), options::timeout);
    set(prefix + "input-needed-grace", poll.getInputNeededGrace(), options::inputNeededGrace);
    set(prefix + "first-poll-within", poll.getFirstPollWithin(), options::firstPollWithin);
    try {
      return options.build();
    } catch (IllegalArgumentException e) {
      // The one rule between two settings: the first interval may not exceed the longest.
      throw new InvalidFormationPropertyException(prefix + "initial-interval", e.getMessage());
    }
  }

  /**
   * Starts the auto-configured tracker when the context is refreshed, and closes it when the
   * context stops, before the client and the DataSource it polls with are closed. Closed also if
   * the context never started it, so that no scheduler thread outlives a failed startup. Stopping
   * closes the tracker on a thread of its own, so that Spring waits for it no longer than {@code
   * spring.lifecycle.timeout-per-shutdown-phase} (30 s by default): a handler that hangs does not
   * hold the shutdown; the tracker's own bound ({@code FormationTracker.Builder.shutdownTimeout},
   * 30 s) ends its close.
   */
  static final class TrackerLifecycle implements SmartLifecycle, AutoCloseable {
    private final FormationTracker tracker;
    private boolean running;
    private boolean closed;

    TrackerLifecycle(FormationTracker tracker) {
      this.tracker = tracker;
    }

    @Override
    public synchronized void start() {
      if (!closed && !running) {
        tracker.start();
        running = true;
      }
    }

    @Override
    public void stop() {
      // db-scheduler's scheduler cannot start again once stopped: stopping is closing.
      close();
    }

    @Override
    public void stop(Runnable callback) {
      synchronized (this) {
        if (closed) {
          callback.run();
          return;
        }
        running = false;
      }
      Thread closing =
          new Thread(
              () -> {
                try {
                  close();
                } finally {
                  callback.run();
                }
              },
              "formation-tracker-stop");
      closing.setDaemon(true);
      closing.start();
    }

    @Override
    public synchronized boolean isRunning() {
      return running;
    }

    /** Closes once; a second call (the bean's destruction after a stop) does not wait for it. */
    @Override
    public void close() {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
        running = false;
      }
      tracker.close();
    }
  }
}
