package io.formation.tracking;

import io.formation.sdk.FormationException;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** A handler that writes down what it is told, as {@code "kind setId detail"}. */
class Recorder implements TrackingHandler {
  final List<String> events = new CopyOnWriteArrayList<>();
  final List<FormationException> reasons = new CopyOnWriteArrayList<>();
  final List<Instant> retryAts = new CopyOnWriteArrayList<>();

  @Override
  public void stateChanged(DocumentSet set) throws Exception {
    events.add("changed " + set.id() + " " + set.state().value());
  }

  @Override
  public void completed(DocumentSet set) throws Exception {
    events.add("completed " + set.id() + " " + set.state().value());
  }

  @Override
  public void inputNeeded(DocumentSet set) throws Exception {
    events.add("input " + set.id() + " " + set.state().value());
  }

  @Override
  public void trackingEnded(String setId, FormationException reason) throws Exception {
    reasons.add(reason);
    events.add("ended " + setId + " " + reason.getClass().getSimpleName());
  }

  @Override
  public void trackingPaused(String setId, FormationException reason, Instant retryAt)
      throws Exception {
    reasons.add(reason);
    retryAts.add(retryAt);
    events.add("paused " + setId + " " + reason.getClass().getSimpleName());
  }

  List<String> events() {
    return new ArrayList<>(events);
  }

  /**
   * Waits until an event matches, for at most 20 s: the tracker's threads work on their own. Not a
   * timed assertion: on a slow machine it waits longer, it does not fail sooner.
   */
  void awaitEvent(Predicate<String> matching) throws InterruptedException {
    Waits.until(() -> events.stream().anyMatch(matching), Duration.ofSeconds(20), this::toString);
  }

  @Override
  public String toString() {
    return "events " + events;
  }
}
