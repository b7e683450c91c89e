package io.formation.examples;

import io.formation.examples.cli.Args;
import io.formation.examples.cli.CommandLine;
import io.formation.examples.cli.UsageException;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * The program without the process: parses the command line, opens the service (or the embedded
 * sandbox), runs one command, and turns every failure into one line on standard error and an exit
 * code.
 *
 * <pre>{@code
 * int code = Cli.run(new String[] {"teams"}, System.getenv(), System.in, System.out, System.err,
 *     false);
 * }</pre>
 */
final class Cli {
  private Cli() {}

  /** One command, ready to run against a client; returns the exit code. */
  interface Command {
    int run(FormationClient client);
  }

  /**
   * Runs one command line.
   *
   * @param args the arguments, program name excluded
   * @param env the environment, read for {@code FORMATION_BASE_URL} and {@code
   *     FORMATION_ACCESS_TOKEN}
   * @param in where interactive answers are read from
   * @param out results, and progress lines starting with {@code #}
   * @param err errors, and with {@code --debug} the request log and stack traces
   * @param interactive whether a person answers on {@code in}: missing form values are then asked
   *     for, and asked again when the service rejects them
   * @return {@link Args#EXIT_SUCCESS}, {@link Args#EXIT_FAILURE} or {@link Args#EXIT_USAGE}
   */
  static int run(
      String[] args,
      Map<String, String> env,
      InputStream in,
      PrintStream out,
      PrintStream err,
      boolean interactive) {
    if (args.length == 0) {
      err.print(Args.usage());
      return Args.EXIT_USAGE;
    }
    CommandLine line;
    try {
      line = Args.parse(args, env);
    } catch (UsageException e) {
      return fail(e, err, false);
    }
    if (line.help()) {
      out.print(Args.usage(line.command()));
      return Args.EXIT_SUCCESS;
    }
    DebugLog log = line.debug() ? DebugLog.to(err) : DebugLog.off();
    try {
      // Built before the service is opened, so that a bad answers file costs no sandbox or call.
      Command command =
          switch (line.command()) {
            case TEAMS -> new TeamsCommand(out);
            case QUICKSTART -> QuickstartCommand.of(line, in, out, interactive);
            case STATUS -> new StatusCommand(line.documentSetId().orElseThrow(), line, out);
            case HELP -> throw new IllegalStateException("help is printed, not run");
          };
      try (Service service = Service.open(line, log, out)) {
        return command.run(service.client());
      }
    } catch (RuntimeException e) {
      return fail(e, err, line.debug());
    } finally {
      out.flush();
    }
  }

  /** One line saying what failed (plus the rejected fields of a form), and the exit code. */
  private static int fail(RuntimeException e, PrintStream err, boolean debug) {
    if (e instanceof UsageException usage) {
      err.println("error: " + usage.getMessage() + ". " + usage.helpHint());
    } else {
      String message = e.getMessage();
      // The SDK's messages are complete sentences; anything else is a surprise worth naming.
      boolean readable =
          e instanceof FormationException
              || e instanceof FormRejected
              || e instanceof IllegalStateException;
      err.println("error: " + (readable && message != null ? message : e.toString()));
    }
    if (e instanceof FormRejected rejected) {
      rejected.fieldLines().forEach(err::println);
    }
    if (debug) {
      e.printStackTrace(err);
    }
    err.flush();
    return Args.exitCode(e);
  }
}
