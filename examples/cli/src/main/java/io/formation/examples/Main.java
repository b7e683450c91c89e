package io.formation.examples;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * The examples program: lists your teams, walks a document set from creation to {@code complete},
 * shows a document set's state, and runs the sandbox on its own.
 *
 * <pre>{@code
 * java -jar formation-cli.jar quickstart --autofill            # against the embedded sandbox
 * java -jar formation-cli.jar teams --base-url https://api.example.com --token "$TOKEN"
 * java -jar formation-cli.jar status ds_123 --wait
 * }</pre>
 */
public final class Main {
  private Main() {}

  /** Runs the command line and exits with its code: 0 success, 1 failed call, 2 bad usage. */
  public static void main(String[] args) {
    int code =
        Cli.run(
            args, System.getenv(), System.in, System.out, System.err, isTerminal(), Cli.FIRST_POLL);
    System.exit(code);
  }

  /**
   * Whether a person can answer questions. Java 22 and later return a console for redirected
   * streams too, and say with {@code isTerminal()} whether it is one; earlier, only for a terminal.
   */
  static boolean isTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return Boolean.TRUE.equals(isTerminal.invoke(console));
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }
}
