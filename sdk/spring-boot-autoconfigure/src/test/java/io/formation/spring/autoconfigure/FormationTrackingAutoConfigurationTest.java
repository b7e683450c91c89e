package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import io.formation.tracking.DatabaseLimit;
import io.formation.tracking.FormationTracker;
import io.formation.tracking.TrackedSet;
import io.formation.tracking.TrackingHandler;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class FormationTrackingAutoConfigurationTest {
  /** A service nobody listens on: no test here but the sandbox one expects a poll to succeed. */
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  FormationAutoConfiguration.class, FormationTrackingAutoConfiguration.class))
          .withPropertyValues(
              "formation.base-url=http://127.0.0.1:9",
              "formation.allow-insecure-http=true",
              "formation.access-token=tok",
              "formation.max-retries=0");

  final Recorder handler = new Recorder();

  @Test
  void withAHandlerAndADataSourceATrackerIsBuiltOnTheClientBeanAndItsTable() {
    DataSource database = TrackingDatabases.withDefaultTable();
    runner
        .withBean(DataSource.class, () -> database)
        .withBean(TrackingHandler.class, () -> handler)
        .run(
            context -> {
              assertThat(context).hasSingleBean(FormationTracker.class);
              FormationTracker tracker = context.getBean(FormationTracker.class);

              assertThat(tracker.track("ds_1")).isTrue();
              assertThat(TrackingDatabases.rows(database, FormationTracker.DEFAULT_TABLE))
                  .isEqualTo(1);
              assertThat(tracker.tracked()).extracting(TrackedSet::setId).containsExactly("ds_1");
            });
  }

  @Test
  void theClientSharesItsLimitThroughTheTrackersDatabaseUnlessTurnedOff() {
    ApplicationContextRunner tracking =
        runner
            .withBean(DataSource.class, TrackingDatabases::withDefaultTable)
            .withBean(TrackingHandler.class, () -> handler);

    tracking.run(
        context -> {
          assertThat(context).hasSingleBean(DatabaseLimit.class);
          assertThat(context).hasBean("formationSharedLimitCustomizer");
        });
    tracking
        .withPropertyValues("formation.tracking.shared-limit.enabled=false")
        .run(
            context -> {
              assertThat(context).hasSingleBean(FormationTracker.class);
              assertThat(context).doesNotHaveBean(DatabaseLimit.class);
            });
  }

  @Test
  void theTrackingPropertiesReachTheTracker() {
    DataSource database = TrackingDatabases.withTable("set_watch");
    runner
        .withBean(DataSource.class, () -> database)
        .withBean(TrackingHandler.class, () -> handler)
        .withPropertyValues(
            "formation.tracking.table-name=set_watch",
            "formation.tracking.poll.timeout=2d",
            "formation.tracking.poll.initial-interval=1h",
            "formation.tracking.poll.max-interval=2h",
            "formation.tracking.poll.first-poll-within=1h",
            "formation.tracking.threads=2",
            "formation.tracking.polling-interval=1s",
            "formation.tracking.pause-on-refusal=1m",
            "formation.tracking.instance-name=web-1")
        .run(
            context -> {
              FormationTracker tracker = context.getBean(FormationTracker.class);

              tracker.track("ds_1");

              assertThat(TrackingDatabases.rows(database, "set_watch")).isEqualTo(1);
              TrackedSet set = tracker.tracked("ds_1").orElseThrow();
              assertThat(
                      Duration.between(
                          set.waitState().orElseThrow().started(),
                          set.waitState().orElseThrow().deadline()))
                  .isEqualTo(Duration.ofDays(2));
            });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "formation.tracking.threads=0 | formation.tracking.threads: threads must be at least 1, got 0",
        "formation.tracking.poll.multiplier=0.5 | formation.tracking.poll.multiplier: multiplier"
            + " must be at least 1, was 0.5"
      })
  void aBadTrackingPropertyStopsTheApplicationNamingIt(String property, String failure) {
    runner
        .withBean(DataSource.class, TrackingDatabases::withDefaultTable)
        .withBean(TrackingHandler.class, () -> handler)
        .withPropertyValues(property)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(InvalidFormationPropertyException.class)
                  .hasMessage(failure);
            });
  }

  @Test
  void theUnsetPollPropertiesKeepTheTrackersOwnDefaults() {
    FormationProperties.Poll poll = new FormationProperties.Poll();
    poll.setTimeout(Duration.ofDays(2));

    // PollOptions has no equals: its toString shows every option.
    assertThat(FormationTrackingAutoConfiguration.pollOptions(poll))
        .hasToString(
            FormationTracker.Builder.defaultPollOptions()
                .newBuilder()
                .timeout(Duration.ofDays(2))
                .build()
                .toString());
    assertThat(FormationTracker.Builder.defaultPollOptions().timeout())
        .isNotEqualTo(Duration.ofDays(2));
  }

  @Test
  void theAutoConfigurationIsRegisteredAndItsPropertiesCarryMetadata() throws Exception {
    assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
        .contains(FormationTrackingAutoConfiguration.class.getName());
    String metadata;
    try (InputStream in =
        getClass()
            .getClassLoader()
            .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(metadata)
        .contains(
            "\"formation.tracking.enabled\"",
            "\"formation.tracking.table-name\"",
            "\"formation.tracking.poll.timeout\"");
  }

  @Test
  void withoutAHandlerThereIsNoTracker() {
    assertNoTrackerIn(runner.withBean(DataSource.class, TrackingDatabases::withDefaultTable));
  }

  @Test
  void withoutADataSourceThereIsNoTracker() {
    assertNoTrackerIn(runner.withBean(TrackingHandler.class, () -> handler));
  }

  @Test
  void trackingCanBeTurnedOff() {
    assertNoTrackerIn(
        runner
            .withBean(DataSource.class, TrackingDatabases::withDefaultTable)
            .withBean(TrackingHandler.class, () -> handler)
            .withPropertyValues("formation.tracking.enabled=false"));
  }

  @Test
  void withoutFormationTrackingOnTheClassPathTheClientStillWorks() {
    runner
        .withClassLoader(new FilteredClassLoader(FormationTracker.class))
        .withBean(DataSource.class, TrackingDatabases::withDefaultTable)
        .withBean(TrackingHandler.class, () -> handler)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(FormationClient.class);
              assertThat(context).doesNotHaveBean(FormationTracker.class);
            });
  }

  @Test
  void aTrackerOfThePartnersOwnWins() {
    runner
        .withBean(DataSource.class, TrackingDatabases::withDefaultTable)
        .withBean(TrackingHandler.class, () -> handler)
        .withUserConfiguration(OwnTracker.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(FormationTracker.class);
              assertThat(context.getBean(FormationTracker.class))
                  .isSameAs(context.getBean(OwnTracker.class).tracker);
              assertThat(context)
                  .doesNotHaveBean(FormationTrackingAutoConfiguration.TrackerLifecycle.class);
            });
  }

  @Test
  void startedWithTheContextItFollowsASetToCompletionAndStopsWithIt() throws Exception {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                FormationAutoConfiguration.class, FormationTrackingAutoConfiguration.class))
        .withBean(DataSource.class, TrackingDatabases::withDefaultTable)
        .withBean(TrackingHandler.class, () -> handler)
        .withBean(
            SandboxOptions.class,
            () ->
                SandboxOptions.defaults()
                    .withProcessingLag(Duration.ofMillis(50))
                    .withStepDelay(Duration.ofMillis(50)))
        .withPropertyValues(
            "formation.sandbox.enabled=true",
            "formation.tracking.polling-interval=100ms",
            "formation.tracking.poll.initial-interval=100ms",
            "formation.tracking.poll.max-interval=200ms",
            "formation.tracking.poll.first-poll-within=100ms")
        .run(
            context -> {
              // Every form submitted, as a user would have: the set goes on by itself.
              String id =
                  context
                      .getBean(FormationSandbox.class)
                      .createSubmitted(SandboxTemplates.DELAWARE_CORPORATION)
                      .id();

              context.getBean(FormationTracker.class).track(id);

              await(() -> handler.events.contains("completed " + id), handler::toString);
              assertThat(schedulerThreads()).isNotEmpty();
            });

    // Closing the context closed the tracker: its scheduler's threads end.
    await(() -> schedulerThreads().isEmpty(), () -> "still running: " + schedulerThreads());
  }

  @Test
  void aHandlerThatHangsHoldsTheContextsShutdownNoLongerThanItsPhaseTimeout() throws Exception {
    CountDownLatch inHandler = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TrackingHandler hanging =
        new TrackingHandler() {
          @Override
          public void completed(DocumentSet set) {
            inHandler.countDown();
            // Ignores interrupts: only a bound on the shutdown ends the wait.
            while (true) {
              try {
                if (release.await(1, TimeUnit.SECONDS)) {
                  return;
                }
              } catch (InterruptedException ignored) {
                // Hangs on.
              }
            }
          }
        };
    try {
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  LifecycleAutoConfiguration.class,
                  FormationAutoConfiguration.class,
                  FormationTrackingAutoConfiguration.class))
          .withBean(DataSource.class, TrackingDatabases::withDefaultTable)
          .withBean(TrackingHandler.class, () -> hanging)
          .withBean(
              SandboxOptions.class,
              () ->
                  SandboxOptions.defaults()
                      .withProcessingLag(Duration.ZERO)
                      .withStepDelay(Duration.ZERO))
          .withPropertyValues(
              "formation.sandbox.enabled=true",
              "formation.tracking.polling-interval=100ms",
              "spring.lifecycle.timeout-per-shutdown-phase=200ms")
          .run(
              context -> {
                String id =
                    context
                        .getBean(FormationSandbox.class)
                        .createSubmitted(SandboxTemplates.DELAWARE_CORPORATION)
                        .id();
                context.getBean(FormationTracker.class).track(id);
                assertThat(inHandler.await(30, TimeUnit.SECONDS)).isTrue();

                // The tracker alone would wait its own 30 s for the handler.
                assertTimeoutPreemptively(Duration.ofSeconds(20), context::close);
              });
    } finally {
      release.countDown();
    }
  }

  private static List<String> schedulerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith("db-scheduler"))
        .toList();
  }

  /**
   * Waits for the tracker's own threads, for at most 30 s. Not a timed assertion: on a slow machine
   * it waits longer, it does not fail sooner.
   */
  private static void await(BooleanSupplier condition, java.util.function.Supplier<String> state)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("gave up waiting; " + state.get());
      }
      Thread.sleep(20);
    }
  }

  /** Writes down what it is told. */
  static final class Recorder implements TrackingHandler {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void stateChanged(DocumentSet set) {
      events.add("changed " + set.id() + " " + set.state().value());
    }

    @Override
    public void completed(DocumentSet set) {
      events.add("completed " + set.id());
    }

    @Override
    public String toString() {
      return "events " + events;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnTracker {
    FormationTracker tracker;

    @Bean
    FormationTracker ownTracker(FormationClient client, DataSource dataSource) {
      tracker = FormationTracker.builder(client, dataSource, new Recorder()).build();
      return tracker;
    }
  }

  private static void assertNoTrackerIn(ApplicationContextRunner configured) {
    configured.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(FormationTracker.class);
        });
  }
}
