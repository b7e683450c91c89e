package io.formation.sdk.internal.guards;

import io.formation.sdk.internal.Port;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Fails at build, naming the fix, when a dependency is older than the SDK runs on. */
public final class Compatibility {
  /** OkHttp 4 ships the same {@code okhttp3} classes under another artifact id. */
  static final String OKHTTP_FLOOR = "5.0.0";

  /** The oldest stdlib with every member OkHttp 5 and Okio 3 link against. */
  static final String KOTLIN_FLOOR = "1.8.0";

  /** Records (the models, and a partner's own types in valuesAs) need 2.12; sdk/it runs it. */
  static final String JACKSON_FLOOR = "2.12.0";

  /** The versions the SDK is built with, offered in the fixes. */
  static final String OKHTTP_TESTED = "5.5.1";

  static final String KOTLIN_TESTED = "2.1.21";

  /** The Okio OkHttp {@value #OKHTTP_TESTED} is built with. */
  static final String OKIO_TESTED = "3.18.1";

  static final String JACKSON_TESTED = "2.19.0";

  /** Up to three numbers: the digits that start each part between dots or dashes. */
  private static final Pattern VERSION =
      Pattern.compile("(\\d+)[^.-]*(?:[.-](\\d+)[^.-]*(?:[.-](\\d+))?)?");

  private Compatibility() {}

  /** Throws naming each library too old, with its Maven fix. */
  public static void check() {
    if (!Found.PROBLEMS.isEmpty()) {
      throw Port.illegalState(
          String.join(System.lineSeparator() + System.lineSeparator(), Found.PROBLEMS));
    }
  }

  /** Holder: read on the first check, then kept for the life of the class loader. */
  private static final class Found {
    static final List<String> PROBLEMS = read();

    private static List<String> read() {
      boolean okioHasSocket = hasOkioSocket();
      return problems(
          staticField("okhttp3.OkHttp", "VERSION"),
          staticField("kotlin.KotlinVersion", "CURRENT"),
          staticField("com.fasterxml.jackson.databind.cfg.PackageVersion", "VERSION"),
          staticField("com.fasterxml.jackson.core.json.PackageVersion", "VERSION"),
          // Only a problem's message names Okio's version: its jar is not opened to read it else.
          okioHasSocket ? null : okioVersion(),
          okioHasSocket);
    }
  }

  static List<String> problems(
      String okhttp,
      String kotlin,
      String databind,
      String core,
      String okio,
      boolean okioHasSocket) {
    List<String> problems = new ArrayList<>();
    okhttpProblem(okhttp).ifPresent(problems::add);
    okioProblem(okio, okioHasSocket).ifPresent(problems::add);
    kotlinProblem(kotlin).ifPresent(problems::add);
    jacksonProblem("jackson-databind", databind).ifPresent(problems::add);
    jacksonProblem("jackson-core", core).ifPresent(problems::add);
    return List.copyOf(problems);
  }

  static Optional<String> okhttpProblem(String found) {
    return problem(olderThan(found, OKHTTP_FLOOR), "okhttp", "found", found);
  }

  static Optional<String> okioProblem(String found, boolean hasSocket) {
    return problem(
        !hasSocket, "okio", "found", found == null ? "of an unknown, older version" : found);
  }

  static Optional<String> kotlinProblem(String found) {
    return problem(olderThan(found, KOTLIN_FLOOR), "kotlin", "found", found);
  }

  static Optional<String> jacksonProblem(String artifact, String found) {
    return problem(
        olderThan(found, JACKSON_FLOOR), "jackson", "artifact", artifact, "found", found);
  }

  /** The message with that name, if there is a problem. */
  private static Optional<String> problem(boolean problem, String name, String... namesAndValues) {
    return problem ? Optional.of(message(name, namesAndValues)) : Optional.empty();
  }

  /** What a call's LinkageError says to the caller: the library, and the fix. */
  public static String explain(LinkageError error) {
    String text = String.valueOf(error.getMessage());
    String library =
        text.contains("okio")
            ? "Okio"
            : text.contains("okhttp3")
                ? "OkHttp"
                : text.contains("kotlin")
                    ? "the Kotlin standard library"
                    : text.contains("jackson") ? "Jackson" : "a library";
    List<String> found = Found.PROBLEMS;
    return message("linkage", "library", library, "error", String.valueOf(error))
        + "\n"
        + (found.isEmpty() ? message("align") : String.join("\n\n", found));
  }

  /** The message of compatibility.txt with that name, each {@code {name}} given filled in. */
  private static String message(String name, String... namesAndValues) {
    String text = Messages.TEXT.get(name);
    for (int i = 0; i < namesAndValues.length; i += 2) {
      text = text.replace("{" + namesAndValues[i] + "}", namesAndValues[i + 1]);
    }
    return text;
  }

  /** Holder: the messages, read from their resource on the first problem, versions filled in. */
  private static final class Messages {
    static final Map<String, String> TEXT = read();

    private static Map<String, String> read() {
      String all;
      try (InputStream in = Compatibility.class.getResourceAsStream("compatibility.txt")) {
        all = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
      } catch (IOException | RuntimeException e) {
        throw Port.illegalState("The SDK's jar lacks compatibility.txt", e);
      }
      all =
          all.replace("{OKHTTP_FLOOR}", OKHTTP_FLOOR)
              .replace("{KOTLIN_FLOOR}", KOTLIN_FLOOR)
              .replace("{JACKSON_FLOOR}", JACKSON_FLOOR)
              .replace("{OKHTTP_TESTED}", OKHTTP_TESTED)
              .replace("{OKIO_TESTED}", OKIO_TESTED)
              .replace("{KOTLIN_TESTED}", KOTLIN_TESTED)
              .replace("{JACKSON_TESTED}", JACKSON_TESTED);
      Map<String, String> messages = new HashMap<>();
      for (String section : all.split("\n== ")) {
        int name = section.indexOf(" ==\n");
        if (name > 0) {
          messages.put(section.substring(0, name), section.substring(name + 4).stripTrailing());
        }
      }
      return Map.copyOf(messages);
    }
  }

  /** Whether {@code found} is below {@code floor}; an unreadable version is not. */
  static boolean olderThan(String found, String floor) {
    int[] have = numbers(found);
    return have != null && Arrays.compare(have, numbers(floor)) < 0;
  }

  /** {@code "2.1.21"}, {@code "5.0.0-alpha.14"}, {@code "2.13"}: three numbers, or null. */
  static int[] numbers(String version) {
    Matcher matcher = version == null ? null : VERSION.matcher(version.trim());
    if (matcher == null || !matcher.lookingAt()) {
      return null;
    }
    int[] numbers = new int[3];
    try {
      for (int i = 0; i < numbers.length && matcher.group(i + 1) != null; i++) {
        numbers[i] = Integer.parseInt(matcher.group(i + 1));
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return numbers;
  }

  /** Whether Okio has the socket method OkHttp links against; true when absent. */
  static boolean hasOkioSocket() {
    ClassLoader loader = Compatibility.class.getClassLoader();
    Class<?> okio;
    try {
      okio = Class.forName("okio.Okio", false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return true;
    }
    try {
      Class<?> socket = Class.forName("okio.Socket", false, loader);
      MethodHandles.publicLookup()
          .findStatic(okio, "socket", MethodType.methodType(socket, Socket.class));
      return true;
    } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
      return false;
    } catch (LinkageError e) {
      return true;
    }
  }

  /** Okio's version as its jar's manifest gives it ({@code Bundle-Version}), or null. */
  static String okioVersion() {
    try {
      Class<?> okio = Class.forName("okio.Okio", false, Compatibility.class.getClassLoader());
      URL jar = okio.getProtectionDomain().getCodeSource().getLocation();
      try (JarFile file = new JarFile(new File(jar.toURI()))) {
        Manifest manifest = file.getManifest();
        return manifest == null ? null : manifest.getMainAttributes().getValue("Bundle-Version");
      }
    } catch (Exception | LinkageError e) {
      return null;
    }
  }

  /** A public static field's value as text, or null when its library is absent. */
  static String staticField(String className, String field) {
    try {
      Class<?> type = Class.forName(className, true, Compatibility.class.getClassLoader());
      return String.valueOf(type.getField(field).get(null));
    } catch (ReflectiveOperationException | LinkageError e) {
      return null;
    }
  }
}
