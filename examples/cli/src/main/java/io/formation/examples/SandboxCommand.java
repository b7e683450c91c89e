package io.formation.examples;

import io.formation.sandbox.Faults;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code sandbox}: runs the sandbox artifact's {@link FormationSandbox} on its own until killed,
 * for another program (or another run of this one) to call. Prints its base URL and token as {@code
 * FORMATION_BASE_URL=...} and {@code FORMATION_ACCESS_TOKEN=...} lines; the token is the sandbox's
 * own, which grants nothing anywhere else.
 */
@Command(
    name = "sandbox",
    header = "Runs the sandbox on its own until killed.",
    description = {
      "Runs the sandbox, a local simulation of the service, until the program "
          + "is killed, and prints its base URL and token as FORMATION_BASE_URL=... "
          + "and FORMATION_ACCESS_TOKEN=... lines.",
      ""
    })
final class SandboxCommand implements Callable<Integer> {
  @ParentCommand private Cli cli;
  @Mixin private Cli.HelpOption help;

  @Option(
      names = "--port",
      paramLabel = "N",
      description = "Port on 127.0.0.1 (default: a free one)")
  private int port;

  @Option(
      names = "--review",
      description = "Send each document set back to input_needed once, with a form reopened")
  private boolean review;

  @Option(
      names = "--faults",
      paramLabel = "FRACTION",
      description = "Fail this fraction of requests: 429, 503 and dropped connections alike")
  private double faults;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "Seed of the faults' random sequence (default: ${DEFAULT-VALUE})")
  private long seed = Faults.DEFAULT_SEED;

  @Override
  public Integer call() {
    SandboxOptions options =
        SandboxOptions.defaults()
            .withPort(port)
            .withReview(review)
            .withFaults(Faults.evenly(faults).withSeed(seed));
    try (FormationSandbox sandbox = FormationSandbox.start(options)) {
      cli.out.println("FORMATION_BASE_URL=" + sandbox.baseUrl());
      cli.out.println("FORMATION_ACCESS_TOKEN=" + sandbox.token());
      cli.out.flush();
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      // Stopped by whoever started this run (a test, an embedding program): not a failure.
      Thread.currentThread().interrupt();
    }
    return 0;
  }
}
