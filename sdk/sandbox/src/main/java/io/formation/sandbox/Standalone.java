package io.formation.sandbox;

import java.io.PrintStream;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link FormationSandbox} as a program, for trying a client by hand or from another
 * language. It prints the base URL and the token, one line each, and serves until killed:
 *
 * <pre>{@code
 * $ java -cp <the jar and its dependencies> io.formation.sandbox.Standalone --port 8080 --review
 * FORMATION_BASE_URL=http://127.0.0.1:8080
 * FORMATION_ACCESS_TOKEN=sandbox-token
 * }</pre>
 *
 * <p>Options: {@code --port N} (default a free port), {@code --review}, {@code --faults FRACTION}
 * (that fraction of requests fails, split evenly between 429, 503 and dropped connections), {@code
 * --seed N} (of the faults), {@code --retry-after DURATION}, {@code --lag DURATION} (processing
 * lag), {@code --step DURATION} (time per state), {@code --token TOKEN}. A duration is written
 * {@code 1500ms}, {@code 2s}, {@code 0} or ISO-8601 ({@code PT1.5S}). The token is the sandbox's
 * own test token, printed because a client needs it; it grants nothing anywhere else.
 */
public final class Standalone {
  private Standalone() {}

  /**
   * Starts the sandbox and serves until the process is killed.
   *
   * @param args the options above
   */
  public static void main(String[] args) throws InterruptedException {
    SandboxOptions options;
    try {
      options = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("formation sandbox: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    FormationSandbox sandbox = start(options, System.out);
    Runtime.getRuntime().addShutdownHook(new Thread(sandbox::close, "formation-sandbox-stop"));
    new CountDownLatch(1).await();
  }

  static final String USAGE =
      "usage: sandbox [--port N] [--review] [--faults FRACTION] [--seed N] [--retry-after"
          + " DURATION] [--lag DURATION] [--step DURATION] [--token TOKEN]";

  /** Starts a sandbox and prints how to reach it. */
  static FormationSandbox start(SandboxOptions options, PrintStream out) {
    FormationSandbox sandbox = FormationSandbox.start(options);
    out.println("FORMATION_BASE_URL=" + sandbox.baseUrl());
    out.println("FORMATION_ACCESS_TOKEN=" + sandbox.token());
    out.flush();
    return sandbox;
  }

  /**
   * Reads the command line.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static SandboxOptions parse(String... args) {
    SandboxOptions options = SandboxOptions.defaults();
    Double faults = null;
    Long seed = null;
    Duration retryAfter = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--review" -> options = options.withReview(true);
        case "--port" -> options = options.withPort(integer(arg, value(args, ++i, arg)));
        case "--faults" -> faults = fraction(arg, value(args, ++i, arg));
        case "--seed" -> seed = number(arg, value(args, ++i, arg));
        case "--retry-after" -> retryAfter = duration(arg, value(args, ++i, arg));
        case "--lag" -> options = options.withProcessingLag(duration(arg, value(args, ++i, arg)));
        case "--step" -> options = options.withStepDelay(duration(arg, value(args, ++i, arg)));
        case "--token" -> options = options.withToken(value(args, ++i, arg));
        default -> throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    Faults chosen = faults == null ? Faults.none() : Faults.evenly(faults);
    if (seed != null) {
      chosen = chosen.withSeed(seed);
    }
    if (retryAfter != null) {
      chosen = chosen.withRetryAfter(retryAfter);
    }
    return options.withFaults(chosen);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static int integer(String option, String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a whole number, got " + text);
    }
  }

  private static long number(String option, String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a whole number, got " + text);
    }
  }

  private static double fraction(String option, String text) {
    try {
      double value = Double.parseDouble(text);
      if (value >= 0 && value <= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " needs a fraction from 0 to 1, got " + text);
  }

  static Duration duration(String option, String text) {
    String lower = text.trim().toLowerCase(Locale.ROOT);
    try {
      Duration duration;
      if (lower.equals("0")) {
        duration = Duration.ZERO;
      } else if (lower.endsWith("ms")) {
        duration = Duration.ofMillis(Long.parseLong(lower.substring(0, lower.length() - 2)));
      } else if (lower.endsWith("s") && !lower.startsWith("p")) {
        duration =
            Duration.ofNanos(
                Math.round(Double.parseDouble(lower.substring(0, lower.length() - 1)) * 1e9));
      } else {
        duration = Duration.parse(text.trim());
      }
      if (!duration.isNegative()) {
        return duration;
      }
    } catch (NumberFormatException | DateTimeParseException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        option + " needs a duration such as 1500ms, 2s or PT1.5S, got " + text);
  }
}
