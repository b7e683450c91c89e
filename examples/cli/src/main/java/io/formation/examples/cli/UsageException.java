package io.formation.examples.cli;

import java.util.Optional;

/**
 * The command line cannot be acted on: an unknown option, a missing value, a form field nobody
 * answered. The program prints the one-line message (and how to get help) and exits with {@link
 * Args#EXIT_USAGE}.
 *
 * <pre>{@code
 * try {
 *   CommandLine line = Args.parse(args, System.getenv());
 *   ...
 * } catch (UsageException e) {
 *   System.err.println("error: " + e.getMessage());
 *   System.err.println(e.helpHint());
 *   System.exit(e.exitCode());
 * }
 * }</pre>
 */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final CommandLine.Command command;

  /** A usage error about the program as a whole. */
  public UsageException(String message) {
    this(message, null);
  }

  /** A usage error about one command, whose help the hint then points to; command may be null. */
  public UsageException(String message, CommandLine.Command command) {
    super(message);
    this.command = command;
  }

  /** The command the error is about, when one was recognised. */
  public Optional<CommandLine.Command> command() {
    return Optional.ofNullable(command);
  }

  /** Always {@link Args#EXIT_USAGE}. */
  public int exitCode() {
    return Args.EXIT_USAGE;
  }

  /** "Run '... quickstart --help' for usage." or the same for the whole program. */
  public String helpHint() {
    String topic =
        command == null || command == CommandLine.Command.HELP ? "" : " " + command.cliName();
    return "Run '" + Args.PROGRAM + topic + " --help' for usage.";
  }
}
