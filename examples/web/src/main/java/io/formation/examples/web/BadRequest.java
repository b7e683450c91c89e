package io.formation.examples.web;

/** A request the page would never send: a 400 that says what was wrong. */
final class BadRequest extends RuntimeException {
  private static final long serialVersionUID = 1L;

  BadRequest(String message) {
    super(message, null, false, false);
  }
}
