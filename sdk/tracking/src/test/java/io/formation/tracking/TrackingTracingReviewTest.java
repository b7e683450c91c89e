package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.kagkarlsson.scheduler.task.TaskInstance;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.AttemptEvent;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationTracer;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reviewer's attempts to break the tracker's tracing promise: a handler runs in a span of the
 * client's tracer linked to the set's creation, the span ends with the handler's failure, the
 * failure still reaches db-scheduler (which retries), and a tracer's failure changes nothing.
 */
class TrackingTracingReviewTest {
  static final String CREATION = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  @RegisterExtension final Closing closing = new Closing();

  /** What the tracer heard, and how its spans misbehave when told to. */
  static final class Tracer implements FormationTracer {
    final List<String> heard = new CopyOnWriteArrayList<>();
    volatile RuntimeException runThrows;
    volatile Error endThrows;

    @Override
    public CallSpan startCall(Call call) {
      heard.add("start " + call.name() + " linked " + call.linkedTo().orElse("-"));
      return new CallSpan() {
        @Override
        public AttemptSpan startAttempt(AttemptEvent attempt) {
          return new AttemptSpan() {
            @Override
            public Map<String, String> headers() {
              return Map.of();
            }

            @Override
            public void end(AttemptEvent finished) {}
          };
        }

        @Override
        public void end(Optional<DocumentSet> set, Optional<Throwable> failure) {
          heard.add(
              "end "
                  + call.name()
                  + failure.map(e -> " failed " + e.getClass().getSimpleName()).orElse(" ok"));
          if (endThrows != null && call.name().startsWith("FormationTracker.")) {
            throw endThrows;
          }
        }

        @Override
        public Optional<String> context() {
          return Optional.of(CREATION);
        }

        @Override
        public void run(Runnable work) {
          if (runThrows != null) {
            throw runThrows;
          }
          work.run();
        }
      };
    }

    List<String> tracker() {
      return heard.stream().filter(line -> line.contains("FormationTracker.")).toList();
    }
  }

  /** A poll task over a sandbox set this client created, with the saved wait as its row's data. */
  record Setup(PollTask task, TaskInstance<String> row) {}

  Setup setup(Tracer tracer, TrackingHandler handler) {
    FormationSandbox sandbox =
        closing.add(
            FormationSandbox.start(
                SandboxOptions.defaults()
                    .withProcessingLag(Duration.ZERO)
                    .withStepDelay(Duration.ofDays(1))));
    FormationClient client =
        closing.add(
            FormationClient.builder()
                .baseUrl(sandbox.baseUrl())
                .accessToken(sandbox.token())
                .allowInsecureHttp(true)
                .tracer(tracer)
                .build());
    PollOptions options =
        PollOptions.builder()
            .timeout(Duration.ofDays(1))
            .retryFailuresAfter(Duration.ofMinutes(1))
            .build();
    DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    String saved = client.documentSets().startWait(set.id(), options).encode();
    PollTask task =
        new PollTask(client, options, handler, Duration.ofMinutes(5), Duration.ofSeconds(1));
    return new Setup(task, new TaskInstance<>("formation-tracking", set.id(), saved));
  }

  @Test
  void aHandlerRunsInASpanLinkedToTheCreationAndItsFailureEndsTheSpanAndReachesTheScheduler() {
    Tracer tracer = new Tracer();
    IllegalStateException failure = new IllegalStateException("the database is down");
    Setup setup =
        setup(
            tracer,
            new TrackingHandler() {
              @Override
              public void stateChanged(DocumentSet set) {
                throw failure;
              }
            });

    assertThatThrownBy(() -> setup.task().execute(setup.row(), null)).isSameAs(failure);

    assertThat(tracer.tracker())
        .containsExactly(
            "start FormationTracker.stateChanged linked " + CREATION,
            "end FormationTracker.stateChanged failed IllegalStateException");
  }

  @Test
  void aHandlerThatThrowsAnErrorEndsItsSpanWithThatError() {
    Tracer tracer = new Tracer();
    Setup setup =
        setup(
            tracer,
            new TrackingHandler() {
              @Override
              public void stateChanged(DocumentSet set) {
                throw new AssertionError("a check in the partner's code");
              }
            });

    assertThatThrownBy(() -> setup.task().execute(setup.row(), null))
        .isInstanceOf(AssertionError.class);

    assertThat(tracer.tracker())
        .containsExactly(
            "start FormationTracker.stateChanged linked " + CREATION,
            "end FormationTracker.stateChanged failed AssertionError");
  }

  @Test
  void aTracerWhoseRunThrowsNeverKeepsTheHandlerFromBeingTold() {
    Tracer tracer = new Tracer();
    tracer.runThrows = new IllegalStateException("context storage broken");
    List<String> told = new CopyOnWriteArrayList<>();
    Setup setup =
        setup(
            tracer,
            new TrackingHandler() {
              @Override
              public void stateChanged(DocumentSet set) {
                told.add(set.state().value());
              }
            });

    setup.task().execute(setup.row(), null);

    assertThat(told).hasSize(1);
  }

  @Test
  void aTracerThatThrowsAnErrorOnEndingTheHandlersSpanChangesNothing() {
    Tracer tracer = new Tracer();
    tracer.endThrows = new NoClassDefFoundError("io/opentelemetry/sdk/trace/Missing");
    List<String> told = new CopyOnWriteArrayList<>();
    Setup setup =
        setup(
            tracer,
            new TrackingHandler() {
              @Override
              public void stateChanged(DocumentSet set) {
                told.add(set.state().value());
              }
            });

    setup.task().execute(setup.row(), null);

    assertThat(told).hasSize(1);
  }
}
