package io.formation.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API of the exported packages, frozen on purpose: a change fails the build until the
 * committed dump (sdk/client/api/formation-sdk.api) is rewritten deliberately with {@code mvn -B
 * verify -pl sdk/client -am -Dapi.update=true}, and the diff reviewed with the change.
 */
class PublicApiTest {
  private static final String UPDATE =
      "If the change is meant, rewrite the dump: mvn -B verify -pl sdk/client -am -Dapi.update=true";

  @Test
  void thePublicApiIsTheCommittedOne() throws IOException, URISyntaxException {
    Path dump = Path.of(System.getProperty("api.dump", "api/formation-sdk.api"));
    List<String> actual = dump();
    if (Boolean.getBoolean("api.update")) {
      Files.createDirectories(dump.toAbsolutePath().getParent());
      Files.write(dump, actual, StandardCharsets.UTF_8);
    }
    List<String> committed =
        Files.exists(dump) ? Files.readAllLines(dump, StandardCharsets.UTF_8) : List.of();
    assertThat(actual)
        .withFailMessage(
            "The public API differs from %s:%n%s%n%s", dump, diff(committed, actual), UPDATE)
        .isEqualTo(committed);
  }

  @Test
  void theDumpShowsSignaturesWithGenericsAndConstantValues()
      throws IOException, URISyntaxException {
    assertThat(dump())
        .contains(
            "public final class io.formation.sdk.FormationClient implements java.lang.AutoCloseable")
        .contains("  public io.formation.sdk.Pager<io.formation.sdk.model.Team> list()")
        .contains("  public static final java.lang.String BASE_URL_ENV = \"FORMATION_BASE_URL\"")
        .noneMatch(line -> line.contains("io.formation.sdk.internal."));
  }

  /** One line per public type of an exported package, then its public and protected members. */
  static List<String> dump() throws IOException, URISyntaxException {
    Path classes =
        Path.of(FormationClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<String> exported = exportedPackages(classes);
    List<Class<?>> types = new ArrayList<>();
    for (String pkg : exported) {
      Path dir = classes.resolve(pkg.replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
          String simple = file.getFileName().toString().replace(".class", "");
          if (!simple.equals("package-info")) {
            Class<?> type =
                Class.forName(pkg + "." + simple, false, PublicApiTest.class.getClassLoader());
            if (isPublicApi(type)) {
              types.add(type);
            }
          }
        }
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    types.sort((a, b) -> a.getName().compareTo(b.getName()));
    List<String> lines = new ArrayList<>();
    for (Class<?> type : types) {
      lines.add(header(type));
      lines.addAll(members(type));
    }
    return lines;
  }

  private static Set<String> exportedPackages(Path classes) throws IOException {
    try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
      return ModuleDescriptor.read(in).exports().stream()
          .filter(export -> !export.isQualified())
          .map(ModuleDescriptor.Exports::source)
          .collect(Collectors.toCollection(java.util.TreeSet::new));
    }
  }

  /** Public, and so is every type it is nested in. */
  private static boolean isPublicApi(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
      if (!Modifier.isPublic(t.getModifiers()) || t.isAnonymousClass() || t.isSynthetic()) {
        return false;
      }
    }
    return true;
  }

  private static String header(Class<?> type) {
    StringBuilder line = new StringBuilder(type.toGenericString());
    Type superclass = type.getGenericSuperclass();
    if (superclass != null && superclass != Object.class && !type.isEnum() && !type.isRecord()) {
      line.append(" extends ").append(superclass.getTypeName());
    }
    Type[] interfaces = type.getGenericInterfaces();
    if (interfaces.length > 0) {
      line.append(type.isInterface() ? " extends " : " implements ")
          .append(
              Arrays.stream(interfaces).map(Type::getTypeName).collect(Collectors.joining(", ")));
    }
    return line.toString();
  }

  private static List<String> members(Class<?> type) {
    List<Member> members = new ArrayList<>();
    members.addAll(Arrays.asList(type.getDeclaredConstructors()));
    members.addAll(Arrays.asList(type.getDeclaredMethods()));
    members.addAll(Arrays.asList(type.getDeclaredFields()));
    String prefix = type.getName() + ".";
    return members.stream()
        .filter(member -> !member.isSynthetic())
        .filter(member -> !(member instanceof Method method && method.isBridge()))
        .filter(
            member ->
                Modifier.isPublic(member.getModifiers())
                    || Modifier.isProtected(member.getModifiers()))
        .map(member -> "  " + signature(member).replace(prefix, "") + constant(member))
        .sorted()
        .toList();
  }

  private static String signature(Member member) {
    if (member instanceof Method method) {
      return method.toGenericString();
    }
    if (member instanceof Field field) {
      return field.toGenericString();
    }
    return ((java.lang.reflect.Constructor<?>) member).toGenericString();
  }

  /** A constant's value is API too: javac copies it into the caller's class. */
  private static String constant(Member member) {
    if (!(member instanceof Field field)) {
      return "";
    }
    int modifiers = field.getModifiers();
    boolean constant =
        Modifier.isStatic(modifiers)
            && Modifier.isFinal(modifiers)
            && (field.getType().isPrimitive() || field.getType() == String.class);
    if (!constant) {
      return "";
    }
    try {
      Object value = field.get(null);
      return " = " + (value instanceof String text ? "\"" + text + "\"" : value);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String diff(List<String> committed, List<String> actual) {
    Set<String> before = new HashSet<>(committed);
    Set<String> after = new HashSet<>(actual);
    StringBuilder diff = new StringBuilder();
    committed.stream()
        .filter(line -> !after.contains(line))
        .forEach(line -> diff.append("- ").append(line).append(System.lineSeparator()));
    actual.stream()
        .filter(line -> !before.contains(line))
        .forEach(line -> diff.append("+ ").append(line).append(System.lineSeparator()));
    return diff.toString();
  }
}
