package io.formation.examples;

import io.formation.examples.sandbox.Sandbox;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sandbox}: runs the sandbox on its own, for other programs to call, until killed. */
@Command(
    name = "sandbox",
    header = "Runs the sandbox on its own until killed.",
    description = {
      "Runs the sandbox, a local simulation of the service, until the program is killed.",
      "Prints its base URL and its token.",
      ""
    })
final class SandboxCommand implements Callable<Integer> {
  @picocli.CommandLine.ParentCommand private Cli cli;
  @Mixin private Cli.HelpOption help;

  @Override
  public Integer call() throws InterruptedException {
    try (Sandbox sandbox = Sandbox.start()) {
      cli.out.println("base URL: " + sandbox.baseUrl());
      cli.out.println("token: " + sandbox.token());
      cli.out.flush();
      new CountDownLatch(1).await();
      return 0;
    }
  }
}
