package io.formation.examples;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.formation.examples.cli.CommandLine.Command;
import io.formation.examples.cli.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code --answers} file: a JSON object mapping each form id to an object of its values, such
 * as {@code {"company": {"name": "Acme Robotics", "suffix": "Inc."}}}.
 */
final class Answers {
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private final String source;
  private final Map<String, JsonNode> byForm;

  private Answers(String source, Map<String, JsonNode> byForm) {
    this.source = source;
    this.byForm = byForm;
  }

  static Answers none() {
    return new Answers("(none)", Map.of());
  }

  /**
   * Reads and checks the file.
   *
   * @throws UsageException naming the file if it cannot be read, is not JSON, or is not an object
   *     of objects
   */
  static Answers read(Path file) {
    JsonNode root;
    try (InputStream in = Files.newInputStream(file)) {
      root = JSON.readTree(in);
    } catch (NoSuchFileException e) {
      throw problem(file, "does not exist");
    } catch (JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      String at =
          where == null ? "" : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
      throw problem(file, "is not valid JSON" + at + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      throw problem(file, "cannot be read: " + e);
    }
    if (root == null || root.isMissingNode()) {
      throw problem(file, "is empty");
    }
    if (!root.isObject()) {
      throw problem(file, "must hold a JSON object of form id to values, not " + kind(root));
    }
    Map<String, JsonNode> byForm = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : root.properties()) {
      if (!entry.getValue().isObject()) {
        throw problem(
            file,
            "must map form '"
                + entry.getKey()
                + "' to an object of values, not "
                + kind(entry.getValue()));
      }
      byForm.put(entry.getKey(), entry.getValue());
    }
    return new Answers(file.toString(), Collections.unmodifiableMap(byForm));
  }

  /** The values given for a form, a copy; empty if the file has none. */
  Optional<JsonNode> forForm(String formId) {
    return Optional.ofNullable(byForm.get(formId)).map(JsonNode::deepCopy);
  }

  Set<String> formIds() {
    return byForm.keySet();
  }

  String source() {
    return source;
  }

  private static UsageException problem(Path file, String what) {
    return new UsageException("the answers file " + file + " " + what, Command.QUICKSTART);
  }

  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }
}
