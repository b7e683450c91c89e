package io.formation.examples.web;

import io.formation.sdk.FormationClient;
import io.formation.sdk.InputNeededException;
import io.formation.sdk.NotFoundException;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Follows one document set for one browser: the SDK polls ({@code awaitCompletionAsync}, so no
 * thread waits) and each state it sees is pushed to the page as a server-sent event, the moment it
 * is seen, whether the interface lists that state or not.
 *
 * <p>Events: {@code state} per state seen; then one of {@code complete} (with the app link), {@code
 * input_needed} (the page fetches the forms again and shows those asked for) or {@code failed}. The
 * stream ends after that one. A comment line every {@code formation-web.heartbeat} (15 s) keeps
 * proxies from closing a quiet stream and finds out that a tab was closed: the write fails, and the
 * polling for that tab stops, within a minute instead of at the next change of state. The formation
 * stays followed by tracking ({@link TrackedStates}), which needs no tab.
 *
 * <p>One person has at most {@code formation-web.limits.streams} (4) streams open at once on an
 * instance; another is answered with one {@code refused} event (status 429, a message for people)
 * and ends.
 */
@Component
final class ProgressStream {
  /**
   * Quick at first, as a set moves soon after its last form; then once a second. A page open for
   * long costs one request a second per viewer: a product with many viewers of one set would poll
   * once on the server and fan the states out instead.
   */
  static final PollOptions POLLING =
      PollOptions.builder()
          .initialInterval(Duration.ofMillis(250))
          .maxInterval(Duration.ofSeconds(1))
          .timeout(Duration.ofMinutes(30))
          .build();

  /** How long the browser waits before it reconnects a dropped stream. */
  private static final Duration RECONNECT = Duration.ofSeconds(2);

  /** A state as the page shows it. */
  record Progress(String state, boolean known, String appLink) {}

  /**
   * The set wants input. {@code returned}: it had moved on and came back, so the service asks for
   * something; otherwise it has not moved yet (it may still be processing the last form).
   */
  record InputNeeded(String state, boolean returned) {}

  /**
   * Following failed; the message is for people. {@code lost}: the service no longer knows the set,
   * so following again cannot help.
   */
  record Failed(String message, boolean lost) {}

  /** Not followed: the person follows as many as allowed already. The message is for people. */
  record Refused(int status, String message, long retryAfterSeconds) {}

  private final FormationClient client;
  private final Duration heartbeat;
  private final ScheduledExecutorService heartbeats =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "progress-heartbeat");
            thread.setDaemon(true);
            return thread;
          });
  private final AtomicInteger following = new AtomicInteger();

  /**
   * How many streams one person may have open on this instance: each polls the service once a
   * second. A closed tab's stream is ended by its second heartbeat at the latest.
   */
  private final int streamsAllowed;

  private final Map<String, Integer> streams = new ConcurrentHashMap<>();

  ProgressStream(
      FormationClient client,
      @Value("${formation-web.heartbeat:PT15S}") Duration heartbeat,
      @Value("${formation-web.limits.streams:4}") int streamsAllowed) {
    this.client = client;
    this.heartbeat = heartbeat;
    this.streamsAllowed = streamsAllowed;
  }

  /** How often a quiet stream is written to, to find out whether its tab is still there. */
  Duration heartbeat() {
    return heartbeat;
  }

  /** How many formations are being followed for a browser now. */
  int following() {
    return following.get();
  }

  @PreDestroy
  void stop() {
    heartbeats.shutdownNow();
  }

  SseEmitter follow(Person person, String id, Consumer<String> seen) {
    if (!take(person)) {
      // In the stream, not as the status: a browser's EventSource cannot read a refusal's status.
      TooMany refusal = TooMany.streams(streamsAllowed, heartbeat.multipliedBy(2));
      SseEmitter refused = new SseEmitter();
      send(
          refused,
          "refused",
          new Refused(429, refusal.getMessage(), refusal.retryAfter().toSeconds()));
      refused.complete();
      return refused;
    }
    // A little longer than the polling, so that the poll's own timeout is what the page hears.
    SseEmitter emitter = new SseEmitter(POLLING.timeout().plusMinutes(1).toMillis());
    AtomicBoolean movedOn = new AtomicBoolean();
    // Completed when the browser is gone; stops the polling, and with it its requests.
    CompletableFuture<Void> browserGone = new CompletableFuture<>();
    PollOptions options =
        POLLING
            .newBuilder()
            .onStateChange(
                set -> {
                  if (!set.state().needsInput()) {
                    movedOn.set(true);
                  }
                  seen.accept(set.state().value());
                  if (!send(emitter, "state", progress(set))) {
                    browserGone.complete(null);
                  }
                })
            .build();
    following.incrementAndGet();
    CompletableFuture<DocumentSet> polling =
        client.documentSets().awaitCompletionAsync(id, options);
    ScheduledFuture<?> beating =
        heartbeats.scheduleWithFixedDelay(
            () -> {
              if (!beat(emitter)) {
                browserGone.complete(null);
              }
            },
            heartbeat.toMillis(),
            heartbeat.toMillis(),
            TimeUnit.MILLISECONDS);
    polling.whenComplete(
        (set, error) -> {
          following.decrementAndGet();
          release(person);
          beating.cancel(false);
          Throwable cause = error instanceof CompletionException ? error.getCause() : error;
          if (cause instanceof CancellationException) {
            return;
          }
          if (cause == null) {
            seen.accept(set.state().value());
            send(emitter, "complete", progress(set));
          } else if (cause instanceof InputNeededException e) {
            String state = e.documentSet().state().value();
            send(emitter, "input_needed", new InputNeeded(state, movedOn.get()));
          } else {
            send(
                emitter,
                "failed",
                new Failed(ServiceErrors.describe(cause), cause instanceof NotFoundException));
          }
          emitter.complete();
        });
    browserGone.thenRun(() -> polling.cancel(false));
    emitter.onCompletion(() -> browserGone.complete(null));
    emitter.onTimeout(() -> browserGone.complete(null));
    emitter.onError(error -> browserGone.complete(null));
    return emitter;
  }

  /** Takes one of the person's streams, if one is left. */
  private boolean take(Person person) {
    boolean[] taken = {false};
    streams.compute(
        person.id(),
        (key, open) -> {
          int now = open == null ? 0 : open;
          if (now >= streamsAllowed) {
            return open;
          }
          taken[0] = true;
          return now + 1;
        });
    return taken[0];
  }

  private void release(Person person) {
    streams.computeIfPresent(person.id(), (key, open) -> open == 1 ? null : open - 1);
  }

  private static Progress progress(DocumentSet set) {
    return new Progress(
        set.state().value(),
        set.state().isKnown(),
        set.appLink().map(Object::toString).orElse(null));
  }

  /** Sends one event; false if the browser is gone. */
  private static boolean send(SseEmitter emitter, String name, Object data) {
    try {
      emitter.send(
          SseEmitter.event()
              .name(name)
              .reconnectTime(RECONNECT.toMillis())
              .data(data, MediaType.APPLICATION_JSON));
      return true;
    } catch (IOException | IllegalStateException e) {
      // The connection closed, or the stream already ended; the container reports the rest.
      return false;
    }
  }

  /** Sends a comment line, which the browser ignores; false if the browser is gone. */
  private static boolean beat(SseEmitter emitter) {
    try {
      emitter.send(SseEmitter.event().comment("heartbeat"));
      return true;
    } catch (IOException | IllegalStateException e) {
      return false;
    }
  }
}
