package io.formation.sdk.internal.guards;

import io.formation.sdk.internal.Port;
import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.Socket;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

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

  private Compatibility() {}

  /** Throws naming each library too old, with its Maven fix. */
  public static void check() {
    List<String> problems = Found.PROBLEMS;
    if (!problems.isEmpty()) {
      throw Port.illegalState(
          String.join(System.lineSeparator() + System.lineSeparator(), problems));
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
    add(problems, okhttpProblem(okhttp));
    add(problems, okioProblem(okio, okioHasSocket));
    add(problems, kotlinProblem(kotlin));
    add(problems, jacksonProblem("jackson-databind", databind));
    add(problems, jacksonProblem("jackson-core", core));
    return List.copyOf(problems);
  }

  private static void add(List<String> problems, Optional<String> problem) {
    if (problem.isPresent()) {
      problems.add(problem.get());
    }
  }

  static Optional<String> okhttpProblem(String found) {
    if (!olderThan(found, OKHTTP_FLOOR)) {
      return Optional.empty();
    }
    return needs(
        "OkHttp",
        OKHTTP_FLOOR,
        ", but OkHttp "
            + found
            + " is on the class path (okhttp3.OkHttp.VERSION). OkHttp 4's artifact"
            + " com.squareup.okhttp3:okhttp holds the same classes as OkHttp 5's okhttp-jvm, and"
            + " whichever comes first on the class path wins.\n"
            + "Fix: keep OkHttp 5 alone. Find what brings OkHttp 4 with"
            + " `mvn dependency:tree -Dincludes=com.squareup.okhttp3`, remove it or exclude it"
            + " there:\n"
            + "  <exclusions>\n"
            + "    <exclusion>\n"
            + "      <groupId>com.squareup.okhttp3</groupId>\n"
            + "      <artifactId>okhttp</artifactId>\n"
            + "    </exclusion>\n"
            + "  </exclusions>\n"
            + "and, if your own code uses OkHttp, depend on OkHttp 5:\n"
            + dependency("com.squareup.okhttp3", "okhttp-jvm", OKHTTP_TESTED));
  }

  static Optional<String> okioProblem(String found, boolean hasSocket) {
    if (hasSocket) {
      return Optional.empty();
    }
    return Optional.of(
        "The Formation SDK needs Okio "
            + OKIO_TESTED
            + " (the version OkHttp "
            + OKHTTP_TESTED
            + " is built with), but Okio "
            + (found == null ? "of an unknown, older version" : found)
            + " is on the class path: it lacks okio.Okio.socket, so the first call would fail with"
            + " a NoSuchMethodError. A dependency management pins an older one (a platform BOM"
            + " that manages Okio, or okio.version).\n"
            + "Fix: find what pins it with `mvn dependency:tree -Dincludes=com.squareup.okio`, and"
            + " give OkHttp its own Okio. In <dependencyManagement><dependencies>:\n"
            + dependency("com.squareup.okio", "okio-jvm", OKIO_TESTED));
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
    return "The call failed because "
        + library
        + " on the class path is not the version the Formation SDK needs ("
        + error
        + ").\n"
        + (found.isEmpty()
            ? "Fix: align it with the versions the SDK is built with (OkHttp "
                + OKHTTP_TESTED
                + ", Okio "
                + OKIO_TESTED
                + ", kotlin-stdlib "
                + KOTLIN_TESTED
                + ", Jackson "
                + JACKSON_TESTED
                + "); `mvn dependency:tree` shows what picks another one."
            : String.join("\n\n", found));
  }

  static Optional<String> kotlinProblem(String found) {
    if (!olderThan(found, KOTLIN_FLOOR)) {
      return Optional.empty();
    }
    return needs(
        "the Kotlin standard library",
        KOTLIN_FLOOR,
        " (OkHttp 5 is written in Kotlin), but kotlin-stdlib "
            + found
            + " is on the class path: a dependency management pins an older one (Spring Boot 2.7"
            + " to 3.0 do, through kotlin.version).\n"
            + "Fix: give OkHttp the stdlib it is built with. Under Spring Boot's parent:\n"
            + "  <properties>\n"
            + "    <kotlin.version>"
            + KOTLIN_TESTED
            + "</kotlin.version>\n"
            + "  </properties>\n"
            + "otherwise, in <dependencyManagement><dependencies>:\n"
            + dependency("org.jetbrains.kotlin", "kotlin-stdlib", KOTLIN_TESTED));
  }

  static Optional<String> jacksonProblem(String artifact, String found) {
    if (!olderThan(found, JACKSON_FLOOR)) {
      return Optional.empty();
    }
    return needs(
        "Jackson",
        JACKSON_FLOOR,
        ", but "
            + artifact
            + " "
            + found
            + " is on the class path.\n"
            + "Fix: align every Jackson module with Jackson's BOM (under Spring Boot's parent,"
            + " set the property jackson-bom.version instead; jackson-2-bom.version on Spring"
            + " Boot 4). In <dependencyManagement><dependencies>:\n"
            + dependency(
                "com.fasterxml.jackson",
                "jackson-bom",
                JACKSON_TESTED,
                "<type>pom</type>",
                "<scope>import</scope>"));
  }

  /** The problem of a library older than its floor, built only once found. */
  private static Optional<String> needs(String library, String floor, String rest) {
    return Optional.of("The Formation SDK needs " + library + " " + floor + " or newer" + rest);
  }

  /** The Maven {@code <dependency>} a fix asks for, indented as in a pom. */
  private static String dependency(
      String groupId, String artifactId, String version, String... more) {
    StringBuilder xml =
        new StringBuilder("  <dependency>\n")
            .append("    <groupId>" + groupId + "</groupId>\n")
            .append("    <artifactId>" + artifactId + "</artifactId>\n")
            .append("    <version>" + version + "</version>\n");
    for (String element : more) {
      xml.append("    ").append(element).append('\n');
    }
    return xml.append("  </dependency>").toString();
  }

  /** Whether {@code found} is below {@code floor}; an unreadable version is not. */
  static boolean olderThan(String found, String floor) {
    int[] have = numbers(found);
    if (have == null) {
      return false;
    }
    int[] need = numbers(floor);
    for (int i = 0; i < need.length; i++) {
      if (have[i] != need[i]) {
        return have[i] < need[i];
      }
    }
    return false;
  }

  /** {@code "2.1.21"}, {@code "5.0.0-alpha.14"}, {@code "2.13"}: three numbers, or null. */
  static int[] numbers(String version) {
    if (version == null) {
      return null;
    }
    String[] parts = version.trim().split("[.-]", 4);
    int[] numbers = new int[3];
    for (int i = 0; i < numbers.length && i < parts.length; i++) {
      String digits = leadingDigits(parts[i]);
      if (digits.isEmpty()) {
        if (i == 0) {
          return null;
        }
        break;
      }
      try {
        numbers[i] = Integer.parseInt(digits);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return numbers;
  }

  private static String leadingDigits(String part) {
    int end = 0;
    while (end < part.length() && Character.isDigit(part.charAt(end))) {
      end++;
    }
    return part.substring(0, end);
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
