package io.formation.tracking;

import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.FormationClient;

/** The client a partner's backend would build for a sandbox: its URL and token, plain http. */
final class SandboxClients {
  private SandboxClients() {}

  static FormationClient of(FormationSandbox sandbox) {
    return FormationClient.builder()
        .baseUrl(sandbox.baseUrl())
        .accessToken(sandbox.token())
        .allowInsecureHttp(true)
        .build();
  }
}
