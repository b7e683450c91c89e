package io.formation.examples;

import io.formation.examples.cli.Args;
import io.formation.examples.cli.CommandLine;
import io.formation.examples.cli.UsageException;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import java.io.PrintStream;
import java.time.Duration;

/**
 * {@code status <id>}: prints {@code <id><TAB><state>}; with {@code --wait}, one such line per
 * state change until the state is complete, then {@code complete <id>}.
 */
final class StatusCommand implements Cli.Command {
  private final String id;
  private final CommandLine line;
  private final PrintStream out;

  StatusCommand(String id, CommandLine line, PrintStream out) {
    this.id = id;
    this.line = line;
    this.out = out;
  }

  @Override
  public int run(FormationClient client) {
    if (id.equals(".") || id.equals("..")) {
      // The SDK refuses them too: a dot segment would change the path.
      throw new UsageException("'" + id + "' is not a document set id", line.command());
    }
    if (!line.waitUntilComplete()) {
      DocumentSet set = client.documentSets().get(id);
      out.println(set.id() + "\t" + set.state().value());
      set.appLink().ifPresent(link -> out.println("# app: " + link));
      return Args.EXIT_SUCCESS;
    }
    // Someone may be filling the forms in right now (in the app, or a quickstart): keep waiting.
    DocumentSet done = client.documentSets().awaitCompletion(id, pollOptions(out, true));
    out.println("complete " + done.id());
    return Args.EXIT_SUCCESS;
  }

  /**
   * Polls often enough to see every state of the sandbox, which moves one state every 700 ms by
   * default, and prints {@code <id><TAB><state>} on each change. A real service moves slower;
   * polling once a second at most stays polite.
   */
  static PollOptions pollOptions(PrintStream out, boolean waitThroughInputNeeded) {
    return PollOptions.builder()
        .initialInterval(Duration.ofMillis(250))
        .multiplier(1.1)
        .maxInterval(Duration.ofSeconds(1))
        .timeout(Duration.ofMinutes(10))
        .waitThroughInputNeeded(waitThroughInputNeeded)
        .onStateChange(
            set -> {
              out.println(set.id() + "\t" + set.state().value());
              if (set.state().needsInput() && waitThroughInputNeeded) {
                out.println("# waiting for its forms to be submitted");
              }
              out.flush();
            })
        .build();
  }
}
