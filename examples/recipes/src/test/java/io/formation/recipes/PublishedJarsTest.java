package io.formation.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every published jar carries the licence, the javadoc jars too: checked on the jars this build
 * made before this module (all of them in {@code mvn verify}).
 */
class PublishedJarsTest {
  private static final Path SDK =
      Path.of("").toAbsolutePath().getParent().getParent().resolve("sdk");
  private static final List<String> PUBLISHED =
      List.of("client", "sandbox", "tracking", "spring-boot-autoconfigure", "spring-boot-starter");

  @Test
  void everyPublishedJarAndJavadocJarCarriesTheLicence() throws IOException {
    List<Path> jars = publishedJars();
    assertThat(jars)
        .extracting(jar -> jar.getFileName().toString())
        .anyMatch(name -> name.startsWith("formation-sdk-") && name.endsWith("-javadoc.jar"));
    for (Path jar : jars) {
      try (JarFile file = new JarFile(jar.toFile())) {
        assertThat(file.getEntry("META-INF/LICENSE")).as(jar.toString()).isNotNull();
      }
    }
  }

  /** The main and javadoc jars built so far (the starter's javadoc and sources jars are a note). */
  private static List<Path> publishedJars() {
    try (Stream<Path> jars =
        PUBLISHED.stream()
            .map(module -> SDK.resolve(module).resolve("target"))
            .filter(Files::isDirectory)
            .flatMap(PublishedJarsTest::list)) {
      return jars.filter(jar -> jar.toString().endsWith(".jar"))
          .filter(jar -> !jar.toString().endsWith("-sources.jar"))
          .filter(
              jar ->
                  !(jar.toString().contains("starter") && jar.toString().endsWith("-javadoc.jar")))
          .toList();
    }
  }

  private static Stream<Path> list(Path folder) {
    try {
      return Files.list(folder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
