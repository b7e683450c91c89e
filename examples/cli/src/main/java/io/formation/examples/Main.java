package io.formation.examples;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * The examples program: lists your teams, walks a document set from creation to {@code complete},
 * and shows a document set's state.
 *
 * <pre>{@code
 * java -jar formation-cli.jar quickstart --autofill            # against the embedded sandbox
 * java -jar formation-cli.jar teams --base-url https://api.example.com --token "$TOKEN"
 * java -jar formation-cli.jar status ds_123 --wait
 * }</pre>
 *
 * <p>Everything but the process itself lives in {@link Cli#run}, which tests call in-process.
 */
public final class Main {
  private Main() {}

  /** Runs the command line and exits with its code: 0 success, 1 failed call, 2 bad usage. */
  public static void main(String[] args) {
    int code = Cli.run(args, System.getenv(), System.in, System.out, System.err, stdinIsTerminal());
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }

  /**
   * Whether a person can answer questions: a console exists and, on Java 22 and later, where {@code
   * System.console()} may return a console for redirected streams, it is a terminal.
   */
  static boolean stdinIsTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return Boolean.TRUE.equals(isTerminal.invoke(console));
    } catch (ReflectiveOperationException e) {
      // Before Java 22 a console is only returned for a terminal.
      return true;
    }
  }
}
