package io.formation.examples.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.formation.examples.sandbox.SchemaValidator.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** One keyword at a time. */
final class SchemaValidatorTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "string  | \"a\"",
        "integer | 3",
        "integer | 3.0",
        "integer | -12345678901234567890",
        "number  | 3.5",
        "number  | 3",
        "boolean | true",
        "object  | {}",
        "array   | []",
        "null    | null",
      })
  void valueOfTheDeclaredTypeIsValid(String type, String value) {
    assertThat(violations("{\"type\":\"" + type + "\"}", value)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "string  | 3           | must be a string",
        "integer | 3.5         | must be an integer",
        "integer | \"3\"       | must be an integer",
        "number  | \"3.5\"     | must be a number",
        "boolean | \"true\"    | must be a boolean",
        "object  | []          | must be an object",
        "array   | {}          | must be an array",
        "null    | 0           | must be null",
      })
  void valueOfAnotherTypeIsReportedAtItsPointer(String type, String value, String message) {
    assertThat(violations("{\"type\":\"" + type + "\"}", value))
        .containsExactly(new Violation("", message));
  }

  @Test
  void typeArrayAcceptsAnyOfItsTypes() {
    String schema = "{\"type\":[\"string\",\"null\"]}";

    assertThat(violations(schema, "\"x\"")).isEmpty();
    assertThat(violations(schema, "null")).isEmpty();
    assertThat(violations(schema, "1"))
        .containsExactly(new Violation("", "must be a string or null"));
  }

  @Test
  void wrongTypeIsReportedOnceWithoutTheKeywordsThatDependOnIt() {
    assertThat(violations("{\"type\":\"string\",\"minLength\":3,\"enum\":[\"abc\"]}", "1"))
        .hasSize(1);
  }

  @Test
  void missingRequiredPropertyIsReportedAtThePointerItWouldHave() {
    assertThat(violations("{\"required\":[\"name\",\"a/b\"]}", "{\"name\":1}"))
        .containsExactly(new Violation("/a~1b", "is required"));
  }

  @Test
  void propertiesAreValidatedAtTheirNestedPointers() {
    String schema =
        "{\"properties\":{\"address\":{\"properties\":{\"zip\":{\"type\":\"string\"}}}}}";

    assertThat(violations(schema, "{\"address\":{\"zip\":19801}}"))
        .containsExactly(new Violation("/address/zip", "must be a string"));
  }

  @Test
  void violationsFollowTheSchemaOrderThenUndeclaredProperties() {
    String schema =
        "{\"properties\":{\"b\":{\"type\":\"string\"},\"a\":{\"type\":\"string\"}},"
            + "\"required\":[\"a\",\"b\"],\"additionalProperties\":false}";

    assertThat(violations(schema, "{\"z\":1,\"a\":1}"))
        .containsExactly(
            new Violation("/b", "is required"),
            new Violation("/a", "must be a string"),
            new Violation("/z", "is not allowed"));
  }

  @Test
  void falseAdditionalPropertiesRejectsUndeclaredOnes() {
    String schema = "{\"properties\":{\"a\":{}},\"additionalProperties\":false}";

    assertThat(violations(schema, "{\"a\":1,\"b\":2}"))
        .containsExactly(new Violation("/b", "is not allowed"));
  }

  @Test
  void additionalPropertiesSchemaValidatesUndeclaredOnes() {
    String schema = "{\"properties\":{\"a\":{}},\"additionalProperties\":{\"type\":\"integer\"}}";

    assertThat(violations(schema, "{\"a\":\"x\",\"b\":2}")).isEmpty();
    assertThat(violations(schema, "{\"b\":\"2\"}"))
        .containsExactly(new Violation("/b", "must be an integer"));
  }

  @Test
  void itemsValidatesEveryElementAtItsIndex() {
    assertThat(violations("{\"items\":{\"type\":\"string\"}}", "[\"a\",2,\"c\",4]"))
        .extracting(Violation::pointer)
        .containsExactly("/1", "/3");
  }

  @Test
  void minItemsAndMaxItemsBoundTheLength() {
    String schema = "{\"minItems\":1,\"maxItems\":2}";

    assertThat(violations(schema, "[]"))
        .containsExactly(new Violation("", "must have at least 1 item"));
    assertThat(violations(schema, "[1,2]")).isEmpty();
    assertThat(violations(schema, "[1,2,3]"))
        .containsExactly(new Violation("", "must have at most 2 items"));
  }

  @Test
  void lengthsCountCodePointsNotUtf16Units() {
    String schema = "{\"minLength\":2,\"maxLength\":2}";

    assertThat(violations(schema, "\"\uD83D\uDE00\uD83D\uDE00\"")).isEmpty();
    assertThat(violations(schema, "\"\uD83D\uDE00\""))
        .containsExactly(new Violation("", "must be at least 2 characters long"));
    assertThat(violations(schema, "\"abc\""))
        .containsExactly(new Violation("", "must be at most 2 characters long"));
  }

  @Test
  void patternIsSearchedUnanchoredAsEcmaScriptDoes() {
    assertThat(violations("{\"pattern\":\"[0-9]\"}", "\"abc1\"")).isEmpty();
    assertThat(violations("{\"pattern\":\"^[0-9]{5}$\"}", "\"1234\""))
        .containsExactly(new Violation("", "must match the pattern ^[0-9]{5}$"));
  }

  @Test
  void invalidPatternIsASchemaError() {
    assertThatThrownBy(() -> violations("{\"pattern\":\"[\"}", "\"x\""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void enumComparesJsonValuesWithNumbersByValue() {
    String schema = "{\"enum\":[\"Inc.\",1,{\"a\":[1]}]}";

    assertThat(violations(schema, "\"Inc.\"")).isEmpty();
    assertThat(violations(schema, "1.0")).isEmpty();
    assertThat(violations(schema, "{\"a\":[1.0]}")).isEmpty();
    assertThat(violations(schema, "\"Corp\""))
        .containsExactly(new Violation("", "must be one of \"Inc.\", 1, {\"a\":[1]}"));
  }

  @Test
  void constRequiresExactlyThatValue() {
    assertThat(violations("{\"const\":\"DE\"}", "\"DE\"")).isEmpty();
    assertThat(violations("{\"const\":\"DE\"}", "\"NY\""))
        .containsExactly(new Violation("", "must be \"DE\""));
  }

  @Test
  void minimumAndMaximumAreInclusive() {
    String schema = "{\"minimum\":1,\"maximum\":10}";

    assertThat(violations(schema, "1")).isEmpty();
    assertThat(violations(schema, "10")).isEmpty();
    assertThat(violations(schema, "0.5")).containsExactly(new Violation("", "must be at least 1"));
    assertThat(violations(schema, "11")).containsExactly(new Violation("", "must be at most 10"));
  }

  @Test
  void exclusiveBoundsAreNumbersAndExcludeTheBound() {
    String schema = "{\"exclusiveMinimum\":0,\"exclusiveMaximum\":1}";

    assertThat(violations(schema, "0.00001")).isEmpty();
    assertThat(violations(schema, "0"))
        .containsExactly(new Violation("", "must be greater than 0"));
    assertThat(violations(schema, "1")).containsExactly(new Violation("", "must be less than 1"));
  }

  @Test
  void numericKeywordsIgnoreValuesThatAreNotNumbers() {
    assertThat(violations("{\"minimum\":1,\"minLength\":5}", "\"abc\""))
        .containsExactly(new Violation("", "must be at least 5 characters long"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"ada@acme.example", "first.last+tag@sub.example.co", "o'neil@example.com"})
  void plausibleEmailAddressesAreValid(String email) {
    assertThat(violations("{\"format\":\"email\"}", quote(email))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "ada",
        "ada@",
        "@acme.example",
        "ada@acme",
        "a b@acme.example",
        "ada@@acme.example",
        ".ada@acme.example",
        "ada@-acme.example"
      })
  void malformedEmailAddressesAreInvalid(String email) {
    assertThat(violations("{\"format\":\"email\"}", quote(email)))
        .containsExactly(new Violation("", "must be a valid email address"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-01-02", "2024-02-29", "1999-12-31"})
  void realCalendarDatesAreValid(String date) {
    assertThat(violations("{\"format\":\"date\"}", quote(date))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2025-02-30",
        "2023-02-29",
        "2025-13-01",
        "2025-1-02",
        "02/01/2025",
        "2025-01-02T00:00:00Z",
        "+2025-01-02"
      })
  void impossibleOrMisshapenDatesAreInvalid(String date) {
    assertThat(violations("{\"format\":\"date\"}", quote(date)))
        .containsExactly(new Violation("", "must be a date in the form YYYY-MM-DD"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://acme.example",
        "http://acme.example/a?b=c#d",
        "mailto:ada@acme.example",
        "urn:isbn:0451450523"
      })
  void absoluteUrisAreValid(String uri) {
    assertThat(violations("{\"format\":\"uri\"}", quote(uri))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"acme.example", "/relative/path", "https://acme example", ""})
  void relativeOrMalformedUrisAreInvalid(String uri) {
    assertThat(violations("{\"format\":\"uri\"}", quote(uri)))
        .extracting(Violation::message)
        .singleElement()
        .asString()
        .startsWith("must be an absolute URI");
  }

  @Test
  void unknownFormatsAreAnnotationsOnly() {
    assertThat(violations("{\"format\":\"hostname\"}", "\"not a hostname!\"")).isEmpty();
  }

  @Test
  void booleanSchemasAcceptEverythingOrNothing() {
    assertThat(violations("true", "{\"anything\":1}")).isEmpty();
    assertThat(violations("false", "1")).containsExactly(new Violation("", "is not allowed"));
  }

  @Test
  void annotationsDoNotConstrainValues() {
    assertThat(violations("{\"title\":\"T\",\"description\":\"D\",\"default\":5}", "\"x\""))
        .isEmpty();
  }

  @Test
  void violationsDeepInArraysOfObjectsCarryTheirFullPointer() {
    JsonNode schema = DelawareForms.byId("people").orElseThrow().jsonSchema();

    List<Violation> violations =
        SchemaValidator.validate(
            schema,
            parse(
                "{\"directors\":[{\"name\":\"A\",\"email\":\"a@b.example\"},{\"name\":\"B\","
                    + "\"email\":\"nope\"}],\"officers\":[]}"));

    assertThat(violations)
        .containsExactly(
            new Violation("/directors/1/email", "must be a valid email address"),
            new Violation("/officers", "must have at least 1 item"));
  }

  @Test
  void resultCannotBeChanged() {
    assertThat(SchemaValidator.validate(parse("{\"type\":\"string\"}"), parse("1")))
        .isUnmodifiable();
  }

  private static List<Violation> violations(String schema, String value) {
    return SchemaValidator.validate(parse(schema), parse(value));
  }

  private static String quote(String text) {
    return Json.object().textNode(text).toString();
  }

  private static JsonNode parse(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new AssertionError(json, e);
    }
  }
}
