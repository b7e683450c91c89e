package io.formation.sdk;

import io.formation.sdk.model.DocumentSet;

/**
 * {@link DocumentSets#awaitCompletion} stopped because the document set needs input: it was still
 * {@code input_needed} when the wait's {@link PollOptions#inputNeededGrace() grace period}, counted
 * from the last accepted submission, ran out, or it came back to {@code input_needed} after a later
 * state (the service asks for more, after a review say). Waiting longer cannot help until the
 * partner submits form values: fetch the forms again, submit the ones that need values, and wait
 * again. Pass {@link PollOptions.Builder#waitThroughInputNeeded(boolean)} to keep waiting instead
 * (for example while another process collects the values).
 *
 * <pre>{@code
 * catch (InputNeededException e) {
 *   showForms(client.forms().list(e.documentSet().id()));
 * }
 * }</pre>
 */
public class InputNeededException extends FormationException {
  private static final long serialVersionUID = 1L;

  private final transient DocumentSet documentSet;

  InputNeededException(DocumentSet documentSet, String detail) {
    super("Document set " + documentSet.id() + " needs input: " + detail);
    this.documentSet = documentSet;
  }

  /** {@return the document set, as last seen, in state {@code input_needed}} */
  public DocumentSet documentSet() {
    return documentSet;
  }
}
