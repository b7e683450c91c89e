package io.formation.examples;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

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
   * Reads the file; one that cannot be read, or holds anything but an object of objects, is a usage
   * error.
   */
  static Answers read(Path file, CommandSpec command) {
    String problem;
    try {
      JsonNode root = JSON.readTree(Files.readString(file));
      Map<String, JsonNode> byForm = new LinkedHashMap<>();
      root.properties().forEach(entry -> byForm.put(entry.getKey(), entry.getValue()));
      if (root.isObject() && byForm.values().stream().allMatch(JsonNode::isObject)) {
        return new Answers(file.toString(), byForm);
      }
      problem = "must hold a JSON object of form id to an object of values";
    } catch (NoSuchFileException e) {
      problem = "does not exist";
    } catch (IOException e) {
      // Jackson's messages say where the JSON goes wrong: line, column and what it expected.
      problem = "cannot be read: " + e.getMessage().lines().findFirst().orElse("");
    }
    throw new ParameterException(command.commandLine(), "the answers file " + file + " " + problem);
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
}
