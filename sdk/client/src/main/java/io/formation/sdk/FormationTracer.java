package io.formation.sdk;

import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.model.DocumentSet;
import java.util.Map;
import java.util.Optional;

/**
 * Traces what a client does: a span for each call of the SDK, one for each of its attempts inside
 * it, and the headers that carry the trace to the service. {@code formation-opentelemetry}'s {@code
 * FormationOpenTelemetry.create(openTelemetry)}, given to {@link FormationClient.Builder#tracer},
 * is the implementation to use; this interface lets the SDK itself depend on no tracing library. A
 * tracer hears every {@link FormationListener} event too, for its metrics.
 *
 * <p>Its methods run on the thread that did the work and must return quickly; what they throw is
 * logged and otherwise ignored, and the call goes on untraced.
 */
public interface FormationTracer extends FormationListener {
  /**
   * {@return the span of a call of the SDK that begins, on the caller's thread (so the caller's
   * current span can be its parent)}
   *
   * @param call what the call does
   */
  CallSpan startCall(Call call);

  /**
   * What a call of the SDK does.
   *
   * @param name the call, as {@code DocumentSets.create}, {@code DocumentSets.poll}, {@code
   *     Forms.list}, {@code Forms.invoke}, {@code Teams.list} or {@code FormationTracker.completed}
   * @param documentSetId the document set it concerns, when known before it is made
   * @param formId the form it concerns, when known
   * @param linkedTo the saved context of the span that created the document set (see {@link
   *     CallSpan#context()}), for the polls and completion of a saved wait
   */
  record Call(
      String name,
      Optional<String> documentSetId,
      Optional<String> formId,
      Optional<String> linkedTo) {
    /**
     * Checks that no component is null.
     *
     * @param name the call
     * @param documentSetId the document set it concerns, when known before it is made
     * @param formId the form it concerns, when known
     * @param linkedTo the saved context of the span that created the document set
     */
    public Call {
      Checks.nonNull("name documentSetId formId linkedTo", name, documentSetId, formId, linkedTo);
    }
  }

  /** The span of one call. */
  interface CallSpan {
    /**
     * {@return the span of an attempt of the call that is about to be sent}
     *
     * @param attempt the attempt; {@link AttemptEvent#attempt()} − 1 is its resend count
     */
    AttemptSpan startAttempt(AttemptEvent attempt);

    /**
     * The call ended; called once.
     *
     * @param set the document set the call created or read, if it did: its id and the state it was
     *     in (where a formation stands, on the span)
     * @param failure why the call failed, if it did
     */
    void end(Optional<DocumentSet> set, Optional<Throwable> failure);

    /**
     * {@return this span's context as a short ASCII string (a W3C {@code traceparent}), which a
     * saved wait keeps so that later polls and the completion link to it; empty if none}
     */
    Optional<String> context();

    /**
     * Runs the work with this span as the current one, so that spans the work starts are its
     * children.
     *
     * @param work the work
     */
    default void run(Runnable work) {
      work.run();
    }
  }

  /** The span of one attempt. */
  interface AttemptSpan {
    /**
     * {@return the headers that carry the trace to the service (a W3C {@code traceparent}); the SDK
     * sends them to the service's origins only}
     */
    Map<String, String> headers();

    /**
     * The attempt got an answer, or failed.
     *
     * @param attempt the attempt, with its status or failure
     */
    void end(AttemptEvent attempt);
  }
}
