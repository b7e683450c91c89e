package io.formation.examples.web;

/** A formation or form the browser asked for that this backend will not touch: a 404. */
final class NotHere extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Whether the whole formation is unknown to this person, not just a form of it. */
  final boolean formation;

  private NotHere(String message, boolean formation) {
    super(message, null, false, false);
    this.formation = formation;
  }

  static NotHere formation(String id) {
    return new NotHere("This browser holds no formation " + id + ".", true);
  }

  static NotHere form(String id, String formId) {
    return new NotHere("Formation " + id + " has no form " + formId + ".", false);
  }
}
