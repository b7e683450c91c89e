package io.formation.examples.web;

import io.formation.sdk.FormationException;
import io.formation.sdk.model.DocumentSet;
import io.formation.tracking.TrackingHandler;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What tracking sees, written into the person's formation row: every started formation is tracked
 * (by whichever instance finds it due), with or without a tab following it, so the row holds its
 * current state after the tab is closed, after a restart and on another instance. Being a {@link
 * TrackingHandler} bean is what makes the starter build and start the tracker.
 *
 * <p>Deliveries come at least once; {@link PersonFormations#seen} is idempotent by set id and
 * state, so a repeat changes nothing.
 */
@Component
final class TrackedStates implements TrackingHandler {
  private static final Logger log = LoggerFactory.getLogger(TrackedStates.class);

  private final PersonFormations formations;

  TrackedStates(PersonFormations formations) {
    this.formations = formations;
  }

  @Override
  public void stateChanged(DocumentSet set) {
    formations.seen(set.id(), set.state().value());
  }

  @Override
  public void completed(DocumentSet set) {
    formations.seen(set.id(), set.state().value());
  }

  @Override
  public void inputNeeded(DocumentSet set) {
    formations.seen(set.id(), set.state().value());
  }

  @Override
  public void trackingEnded(String setId, FormationException reason) {
    // The row keeps the last state seen; the page asks the service again when it lists it.
    log.warn("Tracking of {} ended: {}", setId, reason.getMessage());
  }

  @Override
  public void trackingPaused(String setId, FormationException reason, Instant retryAt) {
    log.warn("Tracking of {} paused until {}: {}", setId, retryAt, reason.getMessage());
  }
}
