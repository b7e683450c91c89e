package io.formation.examples.web;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which document sets each person started, and the start that created each one. The backend acts
 * only on a person's own sets: the token can act on every set of the partner, so without this
 * anybody who learns an id could read and fill in another person's forms.
 *
 * <p>{@link FilePersonFormations} keeps them in a file. The tracking module ({@code
 * formation-tracking}) would take this place: the same questions, answered from its table.
 */
interface PersonFormations {

  /**
   * One formation a person started.
   *
   * @param id the document set's id
   * @param startKey the page's key for the deliberate start that created it
   * @param startedAt when it was created
   * @param lastState the last state the backend saw, for when the service cannot be asked
   */
  record Started(String id, String startKey, Instant startedAt, String lastState) {
    Started withLastState(String state) {
      return new Started(id, startKey, startedAt, state);
    }
  }

  /** The person's formations, the newest first. */
  List<Started> of(Person person);

  /** The formation the person's start with this key created, if it created one. */
  default Optional<Started> startedWith(Person person, String startKey) {
    return of(person).stream().filter(s -> startKey.equals(s.startKey())).findFirst();
  }

  /** Whether the person started this document set. */
  default boolean owns(Person person, String id) {
    return of(person).stream().anyMatch(s -> s.id().equals(id));
  }

  /** Remembers a formation the person started; kept before the person is answered. */
  void remember(Person person, Started started);

  /** Notes the last state seen for one of the person's sets. */
  void seen(Person person, String id, String state);
}
