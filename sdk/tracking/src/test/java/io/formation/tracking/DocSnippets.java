package io.formation.tracking;

import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import io.formation.sdk.model.DocumentSet;
import javax.sql.DataSource;

/** The code of docs/tracking.md, compiled here (DocsCodeTest checks that it stands in a source). */
final class DocSnippets {
  private DocSnippets() {}

  /** A partner's own store of formations, as the docs' handler uses it. */
  interface Formations {
    void updateState(String setId, String state);

    void markComplete(String setId);

    void askUserForInput(String setId);

    void markLost(String setId, String reason);
  }

  static void track(
      FormationClient client, DataSource dataSource, Formations formations, DocumentSet set) {
    FormationTracker tracker =
        FormationTracker.builder(
                client,
                dataSource,
                new TrackingHandler() {
                  @Override
                  public void stateChanged(DocumentSet set) {
                    formations.updateState(set.id(), set.state().value()); // idempotent
                  }

                  @Override
                  public void completed(DocumentSet set) {
                    formations.markComplete(set.id()); // idempotent
                  }

                  @Override
                  public void inputNeeded(DocumentSet set) {
                    formations.askUserForInput(set.id());
                  }

                  @Override
                  public void trackingEnded(String setId, FormationException reason) {
                    formations.markLost(setId, reason.getMessage()); // 404, or the wait's timeout
                  }
                })
            .build();
    tracker.start();

    tracker.track(set.id()); // after the forms are submitted; idempotent
    tracker.tracked(); // every tracked set: last state, next poll
    tracker.untrack(set.id());
    tracker.close(); // on shutdown; the rows stay for the next start
  }

  /** The client of "The rate limit the instances share". */
  static FormationClient sharing(DataSource dataSource) {
    DatabaseLimit limit = DatabaseLimit.on(dataSource); // close it after the client
    FormationClient client =
        FormationClient.builder()
            .baseUrl("https://api.example.com")
            .accessToken(System.getenv("FORMATION_ACCESS_TOKEN"))
            .sharedLimit(limit)
            .build();
    return client;
  }
}
