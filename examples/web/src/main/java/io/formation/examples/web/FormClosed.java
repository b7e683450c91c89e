package io.formation.examples.web;

/** A form the service lists with no action to submit it: it takes no values now. A 409. */
final class FormClosed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  FormClosed(String formId) {
    super("Form " + formId + " takes no values now.", null, false, false);
  }
}
