package io.formation.examples.web;

/**
 * The person using the page, known by a random id the backend issued them in a long-lived cookie
 * ({@link People}), so that their formations are theirs after a reload, in a second tab and after a
 * restart of the backend. In a product this is the signed-in user; the rest of the example does not
 * change.
 *
 * @param id the person's id, 22 random URL-safe characters
 */
record Person(String id) {}
