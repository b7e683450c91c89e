package io.formation.examples.web;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which document sets each person started, and the start that created each one. The backend acts
 * only on a person's own sets: the token can act on every set of the partner, so without this
 * anybody who learns an id could read and fill in another person's forms.
 *
 * <p>{@link JdbcPersonFormations} keeps them in a table beside the tracker's, in one database that
 * every instance of the backend shares; {@link TrackedStates} writes each state tracking sees into
 * them.
 */
interface PersonFormations {

  /**
   * One formation a person started.
   *
   * @param id the document set's id
   * @param startKey the page's key for the deliberate start that created it
   * @param startedAt when it was created
   * @param lastState the last state the backend saw (from the page's stream or from tracking)
   * @param appLink the link to the service's app for it, or null
   */
  record Started(String id, String startKey, Instant startedAt, String lastState, String appLink) {}

  /** The person's formations, the newest first. */
  List<Started> of(Person person);

  /** The formation the person's start with this key created, if it created one. */
  Optional<Started> startedWith(Person person, String startKey);

  /** When the person's formations started since then, the oldest first. */
  List<Instant> startsSince(Person person, Instant since);

  /** Whether the person started this document set. */
  boolean owns(Person person, String id);

  /**
   * Remembers a formation the person started; kept before the person is answered. Remembering the
   * same set again changes nothing.
   */
  void remember(Person person, Started started);

  /**
   * Notes the last state seen for a set, whoever saw it (the page's stream, tracking); the same
   * state again changes nothing. Only sets remembered here are touched.
   */
  void seen(String id, String state);
}
