package io.formation.recipes;

import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.AttemptEvent;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationListener;
import io.formation.sdk.model.DocumentSet;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Metrics: a {@link FormationListener} hears every attempt (method, url without its query, status,
 * time taken) and every state change, and hands them to Micrometer.
 */
public final class MetricsListener {
  private MetricsListener() {}

  public static void main(String[] args) {
    MeterRegistry registry = new SimpleMeterRegistry(); // in an application: its own registry
    // FORMATION_BASE_URL unset: the embedded sandbox stands in for the service.
    boolean local = System.getenv(FormationClient.BASE_URL_ENV) == null;
    try (FormationSandbox sandbox = local ? FormationSandbox.start() : null;
        FormationClient client =
            (local
                    ? FormationClient.builder()
                        .baseUrl(sandbox.baseUrl())
                        .accessToken(sandbox.token())
                    : FormationClient.builder()
                        .baseUrl(System.getenv(FormationClient.BASE_URL_ENV))
                        .accessToken(System.getenv(FormationClient.ACCESS_TOKEN_ENV)))
                .listener(new MicrometerFormationListener(registry))
                .build()) {
      client.teams().list().forEach(team -> {});
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      client.documentSets().get(set.id());
    }
    for (Timer timer : registry.find("formation.attempts").timers()) {
      System.out.println(timer.getId().getTags() + ": " + timer.count() + " attempts");
    }
  }

  static final class MicrometerFormationListener implements FormationListener {
    private final MeterRegistry registry;

    MicrometerFormationListener(MeterRegistry registry) {
      this.registry = registry;
    }

    @Override
    public void attemptFinished(AttemptEvent attempt) {
      registry
          .timer(
              "formation.attempts",
              "method",
              attempt.method(),
              "status",
              String.valueOf(attempt.statusCode()))
          .record(attempt.took());
    }

    @Override
    public void stateChanged(DocumentSet set) {
      registry.counter("formation.states", "state", set.state().value()).increment();
    }
  }
}
