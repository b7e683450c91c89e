package io.formation.sdk;

import io.formation.sdk.internal.time.Ticker;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import java.time.Clock;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The client's last submission to each set, from which a wait counts its {@code input_needed}
 * grace; action urls are opaque, so each listed action's set is noted. Only recent entries are
 * kept: a submission matters only until the wait that follows it starts.
 */
final class Submissions {
  static final int SETS = 10_000;
  static final int ACTIONS = 20_000;

  // Ticker readings: a wait may read another wall clock than the client's (PollOptions.clock).
  private final Ticker ticker;
  private final Map<String, Owner> ownerByAction = lru(ACTIONS);
  private final Map<String, Long> lastBySet = lru(SETS);

  Submissions(Ticker ticker) {
    this.ticker = ticker;
  }

  /** The forms of the set were listed: their actions belong to it. */
  void listed(String setId, List<Form> forms) {
    for (Form form : forms) {
      Owner owner = new Owner(setId, form.id());
      for (FormAction action : form.actions()) {
        ownerByAction.put(action.url(), owner);
      }
    }
  }

  /** The service accepted an action call: a submission of its set, unless it only read. */
  void accepted(FormAction action, ActionResult result) {
    if (action.method().equals("GET") || action.method().equals("HEAD")) {
      return;
    }
    result
        .documentSet()
        .map(DocumentSet::id)
        .or(() -> Optional.ofNullable(owner(action)).map(Owner::setId))
        .ifPresent(setId -> lastBySet.put(setId, ticker.nanoTime()));
  }

  /** {@return the set and form the action was listed with, or null if not known} */
  Owner owner(FormAction action) {
    return ownerByAction.get(action.url());
  }

  /** The set and the form an action belongs to. */
  record Owner(String setId, String formId) {}

  /**
   * {@return when the service last accepted a submission of the set through this client, on the
   * given wall clock}
   */
  Optional<Instant> last(String setId, Clock clock) {
    return Optional.ofNullable(lastBySet.get(setId))
        .map(at -> clock.instant().minusNanos(ticker.nanoTime() - at));
  }

  /** A thread-safe map that keeps the {@code capacity} entries used last. */
  static <V> Map<String, V> lru(int capacity) {
    return Collections.synchronizedMap(
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
            return size() > capacity;
          }
        });
  }
}
