package io.formation.examples;

import io.formation.examples.cli.Args;
import io.formation.examples.cli.CommandLine;
import io.formation.examples.cli.UsageException;
import io.formation.examples.sandbox.Sandbox;
import io.formation.sdk.FormationClient;
import java.io.PrintStream;
import okhttp3.OkHttpClient;

/**
 * The service a command talks to, with a client for it: the one named by {@code --base-url} or
 * {@code FORMATION_BASE_URL}, or else an embedded sandbox started for this run. Closing it closes
 * the client, the debug HTTP client and the sandbox.
 */
final class Service implements AutoCloseable {
  private final FormationClient client;
  private final OkHttpClient debugHttp;
  private final Sandbox sandbox;

  private Service(FormationClient client, OkHttpClient debugHttp, Sandbox sandbox) {
    this.client = client;
    this.debugHttp = debugHttp;
    this.sandbox = sandbox;
  }

  /**
   * Opens the service the command line names, or starts the embedded sandbox when it names none.
   *
   * @throws UsageException if a base URL is given without a token, or the SDK refuses the URL
   */
  static Service open(CommandLine line, DebugLog log, PrintStream out) {
    String baseUrl;
    String token;
    Sandbox sandbox = null;
    if (line.baseUrl().isPresent()) {
      baseUrl = line.baseUrl().get();
      token = line.requireToken();
    } else {
      sandbox = Sandbox.start();
      baseUrl = sandbox.baseUrl();
      token = sandbox.token();
      out.println(
          "# using the embedded sandbox at "
              + baseUrl
              + " (no --base-url or "
              + Args.ENV_BASE_URL
              + " given)");
      if (line.token().isPresent()) {
        log.log("the given token is not used: the sandbox accepts only its own");
      }
    }
    OkHttpClient debugHttp = null;
    try {
      FormationClient.Builder builder =
          FormationClient.builder()
              .baseUrl(baseUrl)
              .accessToken(token)
              .userAgent("formation-examples");
      line.trustedOrigins().forEach(builder::trustOrigin);
      if (log.enabled()) {
        debugHttp = log.httpClient();
        builder.httpClient(debugHttp);
        log.log(
            "base URL "
                + baseUrl
                + ", Authorization: Bearer <redacted>"
                + (line.trustedOrigins().isEmpty()
                    ? ""
                    : ", also trusting " + String.join(", ", line.trustedOrigins())));
      }
      FormationClient client;
      try {
        client = builder.build();
      } catch (IllegalArgumentException | IllegalStateException e) {
        // The SDK names the setting: "base URL uses plain http for a host that is not loopback".
        throw new UsageException(e.getMessage(), line.command());
      }
      return new Service(client, debugHttp, sandbox);
    } catch (RuntimeException e) {
      DebugLog.shutdown(debugHttp);
      if (sandbox != null) {
        sandbox.close();
      }
      throw e;
    }
  }

  FormationClient client() {
    return client;
  }

  @Override
  public void close() {
    try {
      client.close();
    } finally {
      DebugLog.shutdown(debugHttp);
      if (sandbox != null) {
        sandbox.close();
      }
    }
  }
}
