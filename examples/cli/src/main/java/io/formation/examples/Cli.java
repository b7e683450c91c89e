package io.formation.examples;

import static picocli.CommandLine.ScopeType.INHERIT;

import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The program without the process: the options every command shares, the client they open, and the
 * mapping of failures to one line on standard error and an exit code. Picocli does the parsing, the
 * help and the usage errors.
 */
@Command(
    name = "java -jar formation-cli.jar",
    synopsisSubcommandLabel = "<command>",
    description = {
      "Walks through forming a company with the Formation service: list your "
          + "teams, start a document set, fill in and submit its forms, and follow "
          + "its state.",
      ""
    },
    subcommands = {
      TeamsCommand.class,
      QuickstartCommand.class,
      StatusCommand.class,
      SandboxCommand.class,
      HelpCommand.class
    },
    footerHeading = "%nEnvironment:%n",
    footer = {
      "  FORMATION_BASE_URL      base URL of the service, used without --base-url",
      "  FORMATION_ACCESS_TOKEN  OAuth access token, used without --token",
      "",
      "Exit codes:",
      "  0  success",
      "  1  a service call failed, or values were rejected and nobody can fix them",
      "  2  bad usage: unknown command or option, a missing value or answer"
    })
final class Cli implements Callable<Integer> {
  static final int FAILED = 1;
  static final int USAGE = 2;

  static final Duration FIRST_POLL = Duration.ofMillis(250);

  @Option(
      names = "--base-url",
      paramLabel = "URL",
      scope = INHERIT,
      description = "Base URL of the service (else $FORMATION_BASE_URL, else the embedded sandbox)")
  private String baseUrl;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      scope = INHERIT,
      description = "OAuth access token (else $FORMATION_ACCESS_TOKEN)")
  private String token;

  @Option(
      names = "--debug",
      scope = INHERIT,
      description = "Log every HTTP request, and stack traces, on standard error")
  private boolean debug;

  @Mixin private HelpOption help;
  @Spec private CommandSpec spec;

  // Picocli resets a list option in each command it meets it in; this keeps both sides'.
  private final Set<String> trustedOrigins = new LinkedHashSet<>();

  final Map<String, String> env;
  final PrintStream out;
  final PrintStream err;
  final boolean interactive;
  final Duration firstPoll;
  final BufferedReader in;

  private Cli(
      Map<String, String> env,
      InputStream in,
      PrintStream out,
      PrintStream err,
      boolean interactive,
      Duration firstPoll) {
    this.env = env;
    this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    this.out = out;
    this.err = err;
    this.interactive = interactive;
    this.firstPoll = firstPoll;
  }

  /** {@code -h} and {@code --help}, on every command. */
  static final class HelpOption {
    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "Show this help")
    boolean help;
  }

  @Option(
      names = "--trust-origin",
      paramLabel = "ORIGIN",
      scope = INHERIT,
      description = "Also send the token to links and action urls on ORIGIN; repeatable")
  void trustOrigins(List<String> origins) {
    trustedOrigins.addAll(origins);
  }

  /**
   * Runs one command line.
   *
   * @param env read for {@code FORMATION_BASE_URL} and {@code FORMATION_ACCESS_TOKEN}
   * @param interactive whether a person answers questions on {@code in}
   * @param firstPoll the first wait between polls, {@link #FIRST_POLL}; tests poll sooner
   * @return 0 on success, {@link #FAILED} or {@link #USAGE}
   */
  static int run(
      String[] args,
      Map<String, String> env,
      InputStream in,
      PrintStream out,
      PrintStream err,
      boolean interactive,
      Duration firstPoll) {
    Cli cli = new Cli(env, in, out, err, interactive, firstPoll);
    CommandLine line = new CommandLine(cli);
    // The sandbox is the service: the options that say how to reach one mean nothing to it.
    CommandSpec sandbox = line.getSubcommands().get("sandbox").getCommandSpec();
    List.of("--base-url", "--token", "--trust-origin")
        .forEach(name -> sandbox.remove(sandbox.findOption(name)));
    line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    line.setParameterExceptionHandler((e, given) -> usageError(err, e.getMessage(), e));
    line.setExecutionExceptionHandler(
        (e, command, parsed) -> {
          if (e instanceof IllegalArgumentException) {
            // The SDK's word on a value the user typed: an id, a URL, an origin.
            return usageError(err, e.getMessage(), new ParameterException(command, ""));
          }
          boolean readable = e instanceof FormationException || e instanceof FormRejected;
          err.println("error: " + (readable ? e.getMessage() : e.toString()));
          if (e instanceof FormRejected rejected) {
            rejected.fieldLines().forEach(err::println);
          }
          if (cli.debug) {
            e.printStackTrace(err);
          }
          return FAILED;
        });
    int code = line.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  private static int usageError(PrintStream err, String message, ParameterException where) {
    String command = where.getCommandLine().getCommandSpec().qualifiedName();
    err.println("error: " + message + ". Run '" + command + " --help' for usage.");
    return USAGE;
  }

  /** No command: the program's help, on standard error as a usage error. */
  @Override
  public Integer call() {
    spec.commandLine().usage(err);
    return USAGE;
  }

  /**
   * Runs a command with a client for the service the options name, or, when they name none, for an
   * embedded sandbox started for this run; closes both afterwards.
   */
  int withClient(CommandSpec command, ToIntFunction<FormationClient> body) {
    String url = firstNonBlank(baseUrl, env.get(FormationClient.BASE_URL_ENV));
    String key = firstNonBlank(token, env.get(FormationClient.ACCESS_TOKEN_ENV));
    if (url != null && key == null) {
      throw new ParameterException(
          command.commandLine(),
          "a base URL needs an access token: pass --token or set FORMATION_ACCESS_TOKEN");
    }
    FormationClient.Builder builder = FormationClient.builder().userAgent("formation-examples");
    trustedOrigins.forEach(builder::trustOrigin);
    DebugLog log = debug ? new DebugLog(err) : null;
    try (FormationSandbox sandbox = url == null ? FormationSandbox.start() : null) {
      if (sandbox != null) {
        url = sandbox.baseUrl();
        key = sandbox.token();
        out.println(
            "# using the embedded sandbox at "
                + url
                + " (no --base-url or FORMATION_BASE_URL given)");
      }
      if (debug) {
        err.println("# base URL " + url + ", Authorization: Bearer <redacted>");
      }
      try (FormationClient client = builder.baseUrl(url).accessToken(key).build()) {
        return body.applyAsInt(client);
      }
    } finally {
      if (log != null) {
        log.close();
      }
    }
  }

  private static String firstNonBlank(String given, String fromEnv) {
    if (given != null && !given.isBlank()) {
      return given;
    }
    return fromEnv == null || fromEnv.isBlank() ? null : fromEnv;
  }
}
