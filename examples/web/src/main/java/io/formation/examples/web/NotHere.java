package io.formation.examples.web;

/** A formation or form the browser asked for that this backend will not touch: a 404. */
final class NotHere extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private NotHere(String message) {
    super(message, null, false, false);
  }

  static NotHere formation(String id) {
    return new NotHere("You started no document set " + id + " here.");
  }

  static NotHere form(String id, String formId) {
    return new NotHere("Document set " + id + " has no form " + formId + ".");
  }
}
