package io.formation.examples.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What the user asked for, as {@link Args#parse} read it. Options a command does not take are
 * rejected by the parser, so each command only reads the components that concern it.
 *
 * <pre>{@code
 * CommandLine line = Args.parse(args, System.getenv());
 * if (line.help()) {
 *   System.out.print(Args.usage(line.command()));
 *   return Args.EXIT_SUCCESS;
 * }
 * switch (line.command()) {
 *   case TEAMS -> listTeams(line.requireBaseUrl(), line.requireToken());
 *   ...
 * }
 * }</pre>
 *
 * @param command the command to run; {@link Command#HELP} only for help on the whole program
 * @param help whether to print the command's help instead of running it ({@code --help}, {@code -h}
 *     or {@code help <command>})
 * @param documentSetId the {@code <id>} of {@code status}
 * @param baseUrl {@code --base-url}, else {@code FORMATION_BASE_URL}
 * @param token {@code --token}, else {@code FORMATION_ACCESS_TOKEN}
 * @param template {@code --template}, else {@link Args#DEFAULT_TEMPLATE}
 * @param answers {@code --answers}: a JSON object of form id to values object
 * @param autofill {@code --autofill}: fill what the answers leave open with sample data
 * @param trustedOrigins every {@code --trust-origin}, in the order given
 * @param waitUntilComplete {@code --wait}: poll {@code status} until the state is complete
 * @param debug {@code --debug}
 */
public record CommandLine(
    Command command,
    boolean help,
    Optional<String> documentSetId,
    Optional<String> baseUrl,
    Optional<String> token,
    String template,
    Optional<Path> answers,
    boolean autofill,
    List<String> trustedOrigins,
    boolean waitUntilComplete,
    boolean debug) {

  /** Checks that no component is null and copies the origins. */
  public CommandLine {
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(documentSetId, "documentSetId");
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(answers, "answers");
    trustedOrigins = List.copyOf(trustedOrigins);
  }

  /**
   * The base URL, or a usage error that says how to give one.
   *
   * @throws UsageException when neither {@code --base-url} nor {@code FORMATION_BASE_URL} is set
   */
  public String requireBaseUrl() {
    return baseUrl.orElseThrow(
        () ->
            new UsageException(
                "no base URL: pass --base-url URL or set " + Args.ENV_BASE_URL, command));
  }

  /**
   * The access token, or a usage error that says how to give one.
   *
   * @throws UsageException when neither {@code --token} nor {@code FORMATION_ACCESS_TOKEN} is set
   */
  public String requireToken() {
    return token.orElseThrow(
        () ->
            new UsageException(
                "no access token: pass --token TOKEN or set " + Args.ENV_TOKEN, command));
  }

  /** The commands of the program, each with the name typed on the command line. */
  public enum Command {
    TEAMS("List the teams the access token can act on behalf of"),
    QUICKSTART("Create a document set, fill in its forms and submit them"),
    STATUS("Show the state of a document set"),
    HELP("Show help for the program or a command");

    private final String summary;

    Command(String summary) {
      this.summary = summary;
    }

    /** The name as typed: {@code teams}, {@code quickstart}, {@code status}, {@code help}. */
    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** One line for the program's command list. */
    public String summary() {
      return summary;
    }

    /** The command typed as {@code name}, matched exactly (commands are lower case). */
    public static Optional<Command> byName(String name) {
      for (Command command : values()) {
        if (command.cliName().equals(name)) {
          return Optional.of(command);
        }
      }
      return Optional.empty();
    }
  }
}
