package io.formation.examples;

import io.formation.sandbox.FormationSandbox;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One in-process run of the program, as {@code main} would run it, with what it printed. */
record ProgramRun(int code, String out, String err) {
  /**
   * The program's first poll interval in tests, a tenth of the real one, so that a sandbox that
   * moves on every few hundred milliseconds is seen in every state. Waits grow to four times this.
   */
  static final Duration FIRST_POLL = Duration.ofMillis(25);

  /** Runs against a sandbox the test started, non-interactively, with an empty environment. */
  static ProgramRun against(FormationSandbox sandbox, String... args) {
    return run(Map.of(), "", false, withService(sandbox, args));
  }

  /** Runs interactively against a sandbox, reading the given lines as the user's answers. */
  static ProgramRun interactivelyAgainst(FormationSandbox sandbox, String answers, String... args) {
    return run(Map.of(), answers, true, withService(sandbox, args));
  }

  static ProgramRun run(
      Map<String, String> env, String stdin, boolean interactive, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code =
          Cli.run(
              args,
              env,
              new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
              outStream,
              errStream,
              interactive,
              FIRST_POLL);
    }
    return new ProgramRun(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static String[] withService(FormationSandbox sandbox, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--base-url", sandbox.baseUrl(), "--token", sandbox.token()));
    return all.toArray(String[]::new);
  }

  List<String> outLines() {
    return out.lines().toList();
  }

  List<String> errLines() {
    return err.lines().toList();
  }

  String lastLine() {
    List<String> lines = outLines();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }

  /** The lines of standard output that are results, not {@code #} comments. */
  List<String> results() {
    return outLines().stream().filter(line -> !line.startsWith("#")).toList();
  }

  /** The id of the document set this run created, from its {@code # document set} line. */
  String createdId() {
    return outLines().stream()
        .filter(
            line -> line.startsWith("# document set ") && line.endsWith(" created (input_needed)"))
        .map(line -> line.split(" ")[3])
        .findFirst()
        .orElseThrow(() -> new AssertionError("no document set created in:\n" + out));
  }

  /** The states printed for a document set, in order, from its {@code <id><TAB><state>} lines. */
  List<String> statesOf(String id) {
    return outLines().stream()
        .filter(line -> line.startsWith(id + "\t"))
        .map(line -> line.substring(id.length() + 1))
        .toList();
  }
}
