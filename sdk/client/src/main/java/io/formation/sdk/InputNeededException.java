package io.formation.sdk;

import io.formation.sdk.model.DocumentSet;

/**
 * {@link DocumentSets#awaitCompletion} stopped because the document set is {@code input_needed}:
 * waiting longer cannot help until the partner submits form values. Pass {@link
 * PollOptions.Builder#waitThroughInputNeeded(boolean)} to keep waiting instead (for example while
 * another process collects the values).
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

  /** Creates the exception for a document set that needs input. */
  public InputNeededException(DocumentSet documentSet) {
    super("Document set " + documentSet.id() + " needs input: submit its forms, then wait again");
    this.documentSet = documentSet;
  }

  /** The document set, as last seen, in state {@code input_needed}. */
  public DocumentSet documentSet() {
    return documentSet;
  }
}
