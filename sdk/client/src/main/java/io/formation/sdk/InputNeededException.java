package io.formation.sdk;

import io.formation.sdk.model.DocumentSet;

/**
 * {@link DocumentSets#awaitCompletion} stopped because the document set needs input, as the {@link
 * WaitState} rule says: waiting longer cannot help until the partner submits form values. Fetch the
 * forms again, submit the ones that need values, and wait again; or pass {@link
 * PollOptions.Builder#waitThroughInputNeeded(boolean)} to keep waiting instead.
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
