package io.formation.sdk.model;

import java.util.Objects;

/**
 * The state of a document set. The service may add states; an unknown value is kept as sent, {@link
 * #isKnown()} is false for it and it counts as still in progress.
 *
 * <pre>{@code
 * DocumentSetState state = documentSet.state();
 * if (state.isComplete()) { ... }
 * switch (state.kind()) {
 *   case INPUT_NEEDED -> showForms();
 *   case COMPLETE -> showDone();
 *   default -> showProgress(state.value());
 * }
 * }</pre>
 */
public final class DocumentSetState {
  /** The states the interface documents, plus {@link #UNKNOWN} for any other value. */
  public enum Kind {
    /** Form values must be collected or updated. */
    INPUT_NEEDED("input_needed"),
    /** Signatures are being requested. */
    SIGNATURE_REQUESTS_NEEDED("signature_requests_needed"),
    /** Waiting for payment. */
    AWAITING_PAYMENT("awaiting_payment"),
    /** Filing with the state is in progress. */
    FILING_IN_PROGRESS("filing_in_progress"),
    /** The formation is being finalized. */
    FINALIZING("finalizing"),
    /** The formation is complete: stop polling. */
    COMPLETE("complete"),
    /** A value this version of the SDK does not know. */
    UNKNOWN(null);

    private final String value;

    Kind(String value) {
      this.value = value;
    }
  }

  /** {@code input_needed}. */
  public static final DocumentSetState INPUT_NEEDED = new DocumentSetState(Kind.INPUT_NEEDED);

  /** {@code signature_requests_needed}. */
  public static final DocumentSetState SIGNATURE_REQUESTS_NEEDED =
      new DocumentSetState(Kind.SIGNATURE_REQUESTS_NEEDED);

  /** {@code awaiting_payment}. */
  public static final DocumentSetState AWAITING_PAYMENT =
      new DocumentSetState(Kind.AWAITING_PAYMENT);

  /** {@code filing_in_progress}. */
  public static final DocumentSetState FILING_IN_PROGRESS =
      new DocumentSetState(Kind.FILING_IN_PROGRESS);

  /** {@code finalizing}. */
  public static final DocumentSetState FINALIZING = new DocumentSetState(Kind.FINALIZING);

  /** {@code complete}. */
  public static final DocumentSetState COMPLETE = new DocumentSetState(Kind.COMPLETE);

  private static final DocumentSetState[] KNOWN = {
    INPUT_NEEDED,
    SIGNATURE_REQUESTS_NEEDED,
    AWAITING_PAYMENT,
    FILING_IN_PROGRESS,
    FINALIZING,
    COMPLETE
  };

  private final String value;
  private final Kind kind;

  private DocumentSetState(Kind kind) {
    this.value = kind.value;
    this.kind = kind;
  }

  private DocumentSetState(String value) {
    this.value = value;
    this.kind = Kind.UNKNOWN;
  }

  /**
   * {@return the state of a value as the service sends it, even one this SDK does not know}
   *
   * @param value the value as the service sends it
   * @throws NullPointerException if value is null
   */
  public static DocumentSetState of(String value) {
    Objects.requireNonNull(value, "value");
    for (DocumentSetState known : KNOWN) {
      if (known.value.equals(value)) {
        return known;
      }
    }
    return new DocumentSetState(value);
  }

  /** {@return the value exactly as the service sent it} */
  public String value() {
    return value;
  }

  /** {@return the known state, or {@link Kind#UNKNOWN}; convenient in a {@code switch}} */
  public Kind kind() {
    return kind;
  }

  /** {@return whether this is one of the states the interface documents} */
  public boolean isKnown() {
    return kind != Kind.UNKNOWN;
  }

  /** {@return whether the formation is complete: polling can stop} */
  public boolean isComplete() {
    return kind == Kind.COMPLETE;
  }

  /** {@return whether the service waits for the partner to submit form values} */
  public boolean needsInput() {
    return kind == Kind.INPUT_NEEDED;
  }

  /** {@return whether neither complete nor waiting for input (true for an unknown state)} */
  public boolean isInProgress() {
    return !isComplete() && !needsInput();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DocumentSetState state && state.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  /** The value as sent, e.g. {@code awaiting_payment}. */
  @Override
  public String toString() {
    return value;
  }
}
