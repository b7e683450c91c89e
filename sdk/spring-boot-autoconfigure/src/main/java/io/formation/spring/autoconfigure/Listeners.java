package io.formation.spring.autoconfigure;

import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationListener;
import io.formation.sdk.StateChange;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Every listener bean as the one listener a client takes. Each hears every event even when one
 * before it throws; the first failure is then thrown on, for the SDK to log.
 */
final class Listeners implements FormationListener {
  private final List<FormationListener> listeners;

  Listeners(List<FormationListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  @Override
  public void attemptStarted(AttemptEvent attempt) {
    each(listener -> listener.attemptStarted(attempt));
  }

  @Override
  public void attemptFinished(AttemptEvent attempt) {
    each(listener -> listener.attemptFinished(attempt));
  }

  @Override
  public void retryScheduled(AttemptEvent attempt, Duration wait) {
    each(listener -> listener.retryScheduled(attempt, wait));
  }

  @Override
  public void polled(DocumentSet set) {
    each(listener -> listener.polled(set));
  }

  @Override
  public void stateChanged(DocumentSet set) {
    each(listener -> listener.stateChanged(set));
  }

  @Override
  public void stateChanged(StateChange change) {
    each(listener -> listener.stateChanged(change));
  }

  @Override
  public void paused(String origin, Duration pause) {
    each(listener -> listener.paused(origin, pause));
  }

  @Override
  public void heldBack(String origin, Duration retryAfter) {
    each(listener -> listener.heldBack(origin, retryAfter));
  }

  private void each(Consumer<FormationListener> event) {
    RuntimeException first = null;
    for (FormationListener listener : listeners) {
      try {
        event.accept(listener);
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
