package io.formation.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every java block of README.md and docs/*.md is code the build compiles: it must appear, line
 * breaks and comments aside, in a Java source file of the repository's {@code src/<set>/java} trees
 * (the recipes, {@link DocSnippets}, the SDK's tests, the consumer projects of sdk/it), all of
 * which the build compiles with warnings as errors. A block that drifts from the API, or calls a
 * helper that exists nowhere, fails here with the page and line of the block.
 */
class DocsCodeTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent().getParent();
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

  @TestFactory
  Stream<DynamicTest> everyJavaBlockOfTheDocsIsCodeTheBuildCompiles() throws IOException {
    Map<Path, String> sources = compiledSources();
    return blocks().stream()
        .map(
            block ->
                DynamicTest.dynamicTest(
                    block.where(),
                    () -> {
                      String code = flatten(block.code());
                      List<Path> holders =
                          sources.entrySet().stream()
                              .filter(source -> source.getValue().contains(code))
                              .map(Map.Entry::getKey)
                              .toList();
                      assertThat(holders)
                          .as(
                              "%s must be code the build compiles: put it, as it stands, in a"
                                  + " recipe or in examples/recipes/src/test/java/io/formation/"
                                  + "recipes/DocSnippets.java",
                              block.where())
                          .isNotEmpty();
                    }));
  }

  @Test
  void noJavaBlockOfTheDocsLeavesCodeOut() throws IOException {
    assertThat(blocks())
        .as("java blocks with '...' or '…' standing for code left out")
        .filteredOn(block -> block.code().contains("...") || block.code().contains("…"))
        .extracting(Block::where)
        .isEmpty();
  }

  @Test
  void theCheckSeesTheReadmeAndEveryDocsPage() throws IOException {
    assertThat(blocks())
        .extracting(block -> block.page().getFileName().toString())
        .contains("README.md", "workflow.md", "proxies-and-tls.md", "debugging.md");
  }

  @Test
  void flatteningDropsCommentsAndLayoutButKeepsStrings() {
    assertThat(flatten("int a = 1; // one\n/* two */ String s = \"// kept /* too */\";"))
        .isEqualTo("inta=1;Strings=\"//kept/*too*/\";");
    assertThat(flatten("String t = \"\"\"\n  a \\\"\"\" // b\n  \"\"\"; char c = '\"'; // d"))
        .isEqualTo("Stringt=\"\"\"a\\\"\"\"//b\"\"\";charc='\"';");
  }

  record Block(Path page, int line, String code) {
    String where() {
      return ROOT.relativize(page) + ", java block at line " + line;
    }
  }

  private static List<Block> blocks() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(page -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<Block> blocks = new ArrayList<>();
    for (Path page : pages) {
      String text = Files.readString(page, StandardCharsets.UTF_8);
      Matcher block = JAVA_BLOCK.matcher(text);
      while (block.find()) {
        int line = (int) text.substring(0, block.start()).chars().filter(c -> c == '\n').count();
        blocks.add(new Block(page, line + 1, block.group(1)));
      }
    }
    return blocks;
  }

  /** The Java files under every {@code src/<set>/java}, flattened, outside build output. */
  private static Map<Path, String> compiledSources() throws IOException {
    Pattern compiled = Pattern.compile(".*/src/(main|test|jmh)/java/.*\\.java");
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files
          .filter(file -> compiled.matcher(file.toString().replace('\\', '/')).matches())
          .filter(
              file ->
                  !ROOT.relativize(file)
                      .toString()
                      .matches("(.*/)?(target|node_modules|\\.git)/.*"))
          .collect(Collectors.toMap(file -> ROOT.relativize(file), DocsCodeTest::flattened));
    }
  }

  private static String flattened(Path file) {
    try {
      return flatten(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The code without comments and layout, so that a page may break lines and comment where a reader
   * wants and the formatter may lay out the source its own way. String, character and text block
   * literals are kept as they are, comment markers in them included.
   */
  static String flatten(String java) {
    StringBuilder code = new StringBuilder();
    int i = 0;
    while (i < java.length()) {
      if (java.startsWith("//", i)) {
        int end = java.indexOf('\n', i);
        i = end < 0 ? java.length() : end;
      } else if (java.startsWith("/*", i)) {
        int end = java.indexOf("*/", i + 2);
        i = end < 0 ? java.length() : end + 2;
        code.append(' ');
      } else if (java.startsWith("\"\"\"", i)) {
        int end = literalEnd(java, i + 3, "\"\"\"");
        code.append(java, i, end);
        i = end;
      } else if (java.charAt(i) == '"' || java.charAt(i) == '\'') {
        int end = literalEnd(java, i + 1, String.valueOf(java.charAt(i)));
        code.append(java, i, end);
        i = end;
      } else {
        code.append(java.charAt(i));
        i++;
      }
    }
    return code.toString().replaceAll("\\s+", "");
  }

  /** Where a literal opened before {@code from} ends: after its closing quote, escapes skipped. */
  private static int literalEnd(String java, int from, String quote) {
    int i = from;
    while (i < java.length()) {
      if (java.charAt(i) == '\\') {
        i += 2;
      } else if (java.startsWith(quote, i)) {
        return i + quote.length();
      } else {
        i++;
      }
    }
    return java.length();
  }
}
