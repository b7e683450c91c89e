package io.formation.examples.web;

import io.formation.sdk.DocumentSets;
import io.formation.sdk.InputNeededException;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Follows one document set for one browser: the SDK polls ({@code awaitCompletionAsync}, so no
 * thread waits) and each state it sees is pushed to the page as a server-sent event, the moment it
 * is seen, whether the interface lists that state or not.
 *
 * <p>Events: {@code state} per state seen; then one of {@code complete} (with the app link), {@code
 * input_needed} (the page fetches the forms again and shows those asked for) or {@code failed}. The
 * stream ends after that one. The page starts following only once every form is submitted.
 */
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

  /** A state as the page shows it. */
  record Progress(String state, boolean known, String appLink) {}

  /**
   * The set wants input. {@code returned}: it had moved on and came back, so the service asks for
   * something; otherwise it has not moved yet (it may still be processing the last form).
   */
  record InputNeeded(String state, boolean returned) {}

  /** Following failed; the message is for people. */
  record Failed(String message) {}

  private ProgressStream() {}

  static SseEmitter follow(DocumentSets documentSets, String id) {
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
                  if (!send(emitter, "state", progress(set))) {
                    browserGone.complete(null);
                  }
                })
            .build();
    CompletableFuture<DocumentSet> polling = documentSets.awaitCompletionAsync(id, options);
    polling.whenComplete(
        (set, error) -> {
          Throwable cause = error instanceof CompletionException ? error.getCause() : error;
          if (cause instanceof CancellationException) {
            return;
          }
          if (cause == null) {
            send(emitter, "complete", progress(set));
          } else if (cause instanceof InputNeededException e) {
            String state = e.documentSet().state().value();
            send(emitter, "input_needed", new InputNeeded(state, movedOn.get()));
          } else {
            send(emitter, "failed", new Failed(ServiceErrors.describe(cause)));
          }
          emitter.complete();
        });
    browserGone.thenRun(() -> polling.cancel(false));
    emitter.onCompletion(() -> browserGone.complete(null));
    emitter.onTimeout(() -> browserGone.complete(null));
    emitter.onError(error -> browserGone.complete(null));
    return emitter;
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
      emitter.send(SseEmitter.event().name(name).data(data, MediaType.APPLICATION_JSON));
      return true;
    } catch (IOException | IllegalStateException e) {
      // The connection closed, or the stream already ended; the container reports the rest.
      return false;
    }
  }
}
