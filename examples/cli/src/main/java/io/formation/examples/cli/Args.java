package io.formation.examples.cli;

import io.formation.examples.cli.CommandLine.Command;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the command line of the examples program, and holds its help texts.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *   int code;
 *   try {
 *     CommandLine line = Args.parse(args, System.getenv());
 *     code = line.help() ? printHelp(line.command()) : run(line);
 *   } catch (RuntimeException e) {
 *     System.err.println("error: " + e.getMessage());
 *     code = Args.exitCode(e);
 *   }
 *   System.exit(code);
 * }
 * }</pre>
 *
 * <p>Options take their value as {@code --opt value} or {@code --opt=value} and may come before or
 * after the command. {@code --help} or {@code -h} anywhere wins over every other problem on the
 * line, so a user can always reach the help of the command they were typing. {@code --} ends the
 * options.
 */
public final class Args {
  /** The command ran to completion. */
  public static final int EXIT_SUCCESS = 0;

  /** A call to the service failed, or the service said no. */
  public static final int EXIT_FAILURE = 1;

  /** The command line or the answers cannot be acted on; see {@link UsageException}. */
  public static final int EXIT_USAGE = 2;

  /** How the program is started, as shown in usage lines. */
  public static final String PROGRAM = "java -jar formation-cli.jar";

  /** The environment variable read when {@code --base-url} is not given. */
  public static final String ENV_BASE_URL = "FORMATION_BASE_URL";

  /** The environment variable read when {@code --token} is not given. */
  public static final String ENV_TOKEN = "FORMATION_ACCESS_TOKEN";

  /** The template {@code quickstart} uses without {@code --template}: a Delaware C-Corporation. */
  public static final String DEFAULT_TEMPLATE = "startup_delaware-corporation";

  private Args() {}

  /**
   * Parses the arguments of {@code main}.
   *
   * @param args the arguments, program name excluded
   * @param env the environment, such as {@code System.getenv()}; read for {@link #ENV_BASE_URL} and
   *     {@link #ENV_TOKEN} only, blank values counting as unset
   * @throws UsageException with a one-line message for an unknown command or option, a missing or
   *     malformed value, a missing {@code <id>} or an extra argument
   */
  public static CommandLine parse(String[] args, Map<String, String> env) {
    return new Parser(env).parse(List.of(args));
  }

  /** {@link #EXIT_USAGE} for a {@link UsageException}, {@link #EXIT_FAILURE} for anything else. */
  public static int exitCode(Throwable failure) {
    return failure instanceof UsageException ? EXIT_USAGE : EXIT_FAILURE;
  }

  /** The help of the whole program. */
  public static String usage() {
    StringBuilder text = new StringBuilder();
    text.append("Usage: ").append(PROGRAM).append(" <command> [options]\n\n");
    text.append(
        """
        Walks through forming a company with the Formation service: list your teams,
        start a document set, fill in and submit its forms, and follow its state.

        Commands:
        """);
    for (Command command : Command.values()) {
      text.append(String.format(Locale.ROOT, "  %-16s %s\n", synopsis(command), command.summary()));
    }
    text.append("\nOptions for every command:\n").append(COMMON_OPTIONS);
    text.append("\n");
    text.append(
        """
        Environment:
          FORMATION_BASE_URL      Base URL of the service, used without --base-url
          FORMATION_ACCESS_TOKEN  OAuth access token, used without --token

        Exit codes:
          0  success
          1  a call to the service failed
          2  bad usage: unknown command or option, missing value or answer
        """);
    text.append("\nRun '").append(PROGRAM).append(" help <command>' for a command's options.\n");
    return text.toString();
  }

  /** The help of one command; {@link Command#HELP} gives the program's help. */
  public static String usage(Command command) {
    if (command == Command.HELP) {
      return usage();
    }
    StringBuilder text = new StringBuilder();
    text.append("Usage: ").append(PROGRAM).append(' ').append(synopsis(command));
    text.append(" [options]\n\n");
    switch (command) {
      case TEAMS ->
          text.append(
              """
              Lists the teams the access token can act on behalf of, following the
              service's pages to the end. The token needs the documentSets.read scope.

              Options:
              """);
      case QUICKSTART ->
          text.append(
              """
              Creates a document set from a template, then fills in each form that
              needs values and submits it through the action the form came with.
              Values come from --answers first; fields the answers leave open are
              filled with sample data (--autofill) or asked for interactively. When
              input is not interactive, a required field left open is a usage error.
              Prints the document set's id, state and app link.

              Options:
                --template T            Template to start from
                                        (default: startup_delaware-corporation)
                --answers FILE          JSON object mapping each form id to its values,
                                        e.g. {"company": {"name": "Acme Robotics"}}
                --autofill              Fill fields the answers leave open with sample
                                        data from the form's schema instead of asking
              """);
      case STATUS ->
          text.append(
              """
              Shows the state of the document set <id>.

              Options:
                --wait                  Keep polling until the state is complete
              """);
      default -> throw new IllegalArgumentException(command.name());
    }
    return text.append(COMMON_OPTIONS).toString();
  }

  private static String synopsis(Command command) {
    return switch (command) {
      case STATUS -> "status <id>";
      case HELP -> "help [command]";
      default -> command.cliName();
    };
  }

  private static final String COMMON_OPTIONS =
      """
        --base-url URL          Base URL of the service (else $FORMATION_BASE_URL)
        --token TOKEN           OAuth access token (else $FORMATION_ACCESS_TOKEN)
        --trust-origin ORIGIN   Also send the token to links and action URLs on
                                ORIGIN, e.g. https://files.example.com; repeatable
        --debug                 Print diagnostic details to standard error
        -h, --help              Show this help
      """;

  /** The options, each with the value it takes (null for a flag) and the commands it serves. */
  private enum Option {
    BASE_URL("--base-url", "URL", EnumSet.allOf(Command.class)),
    TOKEN("--token", "TOKEN", EnumSet.allOf(Command.class)),
    TRUST_ORIGIN("--trust-origin", "ORIGIN", EnumSet.allOf(Command.class)),
    DEBUG("--debug", null, EnumSet.allOf(Command.class)),
    HELP("--help", null, EnumSet.allOf(Command.class)),
    TEMPLATE("--template", "T", EnumSet.of(Command.QUICKSTART)),
    ANSWERS("--answers", "FILE", EnumSet.of(Command.QUICKSTART)),
    AUTOFILL("--autofill", null, EnumSet.of(Command.QUICKSTART)),
    WAIT("--wait", null, EnumSet.of(Command.STATUS));

    final String flag;
    final String metavar;
    final Set<Command> commands;

    Option(String flag, String metavar, Set<Command> commands) {
      this.flag = flag;
      this.metavar = metavar;
      this.commands = commands;
    }

    static Optional<Option> byFlag(String flag) {
      if (flag.equals("-h")) {
        return Optional.of(HELP);
      }
      for (Option option : values()) {
        if (option.flag.equals(flag)) {
          return Optional.of(option);
        }
      }
      return Optional.empty();
    }
  }

  private static final class Parser {
    private final Map<String, String> env;
    private final List<String> positionals = new ArrayList<>();
    private final List<Option> seen = new ArrayList<>();
    private final List<String> trustedOrigins = new ArrayList<>();
    private String problem;
    private Command command;
    private String documentSetId;
    private boolean helpFlag;
    private boolean helpCommand;
    private String baseUrl;
    private String token;
    private String template;
    private String answers;
    private boolean autofill;
    private boolean waitUntilComplete;
    private boolean debug;

    Parser(Map<String, String> env) {
      this.env = env;
    }

    CommandLine parse(List<String> args) {
      boolean optionsEnded = false;
      for (int i = 0; i < args.size(); i++) {
        String arg = args.get(i);
        if (optionsEnded || !isOption(arg)) {
          positionals.add(arg);
        } else if (arg.equals("--")) {
          optionsEnded = true;
        } else {
          int equals = arg.indexOf('=');
          String flag = equals < 0 ? arg : arg.substring(0, equals);
          String inline = equals < 0 ? null : arg.substring(equals + 1);
          Optional<Option> option = Option.byFlag(flag);
          if (option.isEmpty()) {
            fail("unknown option " + flag);
          } else if (option.get().metavar == null) {
            if (inline != null) {
              fail("option " + flag + " takes no value");
            }
            set(option.get(), null);
          } else if (inline != null) {
            set(option.get(), inline);
          } else if (i + 1 < args.size() && !isOption(args.get(i + 1))) {
            set(option.get(), args.get(++i));
          } else {
            set(option.get(), "");
          }
        }
      }
      readPositionals();
      checkOptionsApply();
      String url = baseUrl != null ? baseUrl : fromEnv(ENV_BASE_URL);
      if (url != null) {
        checkHttpUrl(baseUrl != null ? "--base-url" : ENV_BASE_URL, url);
      }
      trustedOrigins.forEach(this::checkOrigin);
      Optional<Path> answersPath = answersPath();
      if (command == null) {
        command = Command.HELP;
      }
      // Only the flag beats a problem: "help nosuchcommand" is itself a mistake to report.
      if (problem != null && !helpFlag) {
        throw new UsageException(problem, command);
      }
      return new CommandLine(
          command,
          helpFlag || helpCommand || command == Command.HELP,
          Optional.ofNullable(documentSetId),
          Optional.ofNullable(url),
          Optional.ofNullable(token != null ? token : fromEnv(ENV_TOKEN)),
          template != null ? template : DEFAULT_TEMPLATE,
          answersPath,
          autofill,
          trustedOrigins,
          waitUntilComplete,
          debug);
    }

    // A lone "-" is an ordinary argument by convention (often meaning standard input).
    private static boolean isOption(String arg) {
      return arg.startsWith("-") && arg.length() > 1;
    }

    private void set(Option option, String value) {
      if (option.metavar != null && value.isBlank()) {
        fail("option " + option.flag + " needs a value: " + option.flag + " " + option.metavar);
        return;
      }
      if (option != Option.TRUST_ORIGIN && option != Option.HELP && seen.contains(option)) {
        fail("option " + option.flag + " is given more than once");
        return;
      }
      seen.add(option);
      switch (option) {
        case BASE_URL -> baseUrl = value.strip();
        case TOKEN -> token = value.strip();
        case TRUST_ORIGIN -> trustedOrigins.add(value.strip());
        case DEBUG -> debug = true;
        case HELP -> helpFlag = true;
        case TEMPLATE -> template = value.strip();
        case ANSWERS -> answers = value;
        case AUTOFILL -> autofill = true;
        case WAIT -> waitUntilComplete = true;
      }
    }

    private void readPositionals() {
      if (positionals.isEmpty()) {
        if (!helpFlag) {
          fail("no command given");
        }
        return;
      }
      String name = positionals.get(0);
      Optional<Command> named = Command.byName(name);
      if (named.isEmpty()) {
        fail("unknown command '" + name + "'");
        return;
      }
      command = named.get();
      List<String> rest = positionals.subList(1, positionals.size());
      switch (command) {
        case HELP -> {
          helpCommand = true;
          if (!rest.isEmpty()) {
            Optional<Command> topic = Command.byName(rest.get(0));
            if (topic.isEmpty()) {
              fail("unknown command '" + rest.get(0) + "'");
            } else {
              command = topic.get();
            }
          }
          extra(rest, 1);
        }
        case STATUS -> {
          if (rest.isEmpty() || rest.get(0).isBlank()) {
            fail("missing document set id: status <id>");
          } else {
            documentSetId = rest.get(0);
          }
          extra(rest, 1);
        }
        default -> extra(rest, 0);
      }
    }

    private void extra(List<String> rest, int expected) {
      if (rest.size() > expected) {
        fail("unexpected argument '" + rest.get(expected) + "'");
      }
    }

    private void checkOptionsApply() {
      if (command == null || command == Command.HELP) {
        return;
      }
      for (Option option : seen) {
        if (!option.commands.contains(command)) {
          fail("option " + option.flag + " does not apply to '" + command.cliName() + "'");
        }
      }
    }

    private String fromEnv(String name) {
      String value = env.get(name);
      return value == null || value.isBlank() ? null : value.strip();
    }

    private void checkHttpUrl(String source, String value) {
      URI uri = uri(value);
      if (uri == null || !isHttp(uri) || uri.getHost() == null) {
        fail(
            source
                + " must be an http(s) URL such as https://api.example.com, got '"
                + value
                + "'");
      }
    }

    private void checkOrigin(String value) {
      URI uri = uri(value);
      boolean origin =
          uri != null
              && isHttp(uri)
              && uri.getHost() != null
              && uri.getRawUserInfo() == null
              && (uri.getRawPath() == null
                  || uri.getRawPath().isEmpty()
                  || uri.getRawPath().equals("/"))
              && uri.getRawQuery() == null
              && uri.getRawFragment() == null;
      if (!origin) {
        fail(
            "--trust-origin must be an origin such as https://files.example.com, got '"
                + value
                + "'");
      }
    }

    private Optional<Path> answersPath() {
      if (answers == null) {
        return Optional.empty();
      }
      try {
        return Optional.of(Path.of(answers));
      } catch (InvalidPathException e) {
        fail("--answers is not a usable file name: '" + answers + "'");
        return Optional.empty();
      }
    }

    private static URI uri(String value) {
      try {
        return new URI(value);
      } catch (URISyntaxException e) {
        return null;
      }
    }

    private static boolean isHttp(URI uri) {
      return "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
    }

    // The first problem is reported: later ones are often consequences of it.
    private void fail(String message) {
      if (problem == null) {
        problem = message;
      }
    }
  }
}
