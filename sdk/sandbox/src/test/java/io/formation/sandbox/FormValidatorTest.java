package io.formation.sandbox;

import static io.formation.sandbox.Delaware.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the sandbox relies on from the validator library: draft 2020-12 semantics, asserted formats,
 * and one violation per problem pointing at the field itself.
 */
final class FormValidatorTest {

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
        "string  | 3",
        "integer | 3.5",
        "integer | \"3\"",
        "number  | \"3.5\"",
        "boolean | \"true\"",
        "object  | []",
        "array   | {}",
        "null    | 0",
      })
  void valueOfAnotherTypeIsReportedOnceAtTheRoot(String type, String value) {
    assertThat(violations("{\"type\":\"" + type + "\"}", value))
        .singleElement()
        .satisfies(
            violation -> {
              assertThat(violation.pointer()).isEmpty();
              assertThat(violation.message()).contains(type);
            });
  }

  @Test
  void typeArrayAcceptsAnyOfItsTypes() {
    String schema = "{\"type\":[\"string\",\"null\"]}";

    assertThat(violations(schema, "\"x\"")).isEmpty();
    assertThat(violations(schema, "null")).isEmpty();
    assertThat(pointers(schema, "1")).containsExactly("");
  }

  @Test
  void stringKeywordsDoNotApplyToValuesOfAnotherType() {
    assertThat(pointers("{\"type\":\"string\",\"minLength\":3,\"pattern\":\"^a\"}", "1"))
        .containsExactly("");
  }

  @Test
  void missingRequiredPropertyIsReportedAtThePointerItWouldHave() {
    assertThat(violations("{\"required\":[\"name\",\"a/b\",\"c~d\"]}", "{\"name\":1}"))
        .extracting(Violation::pointer)
        .containsExactlyInAnyOrder("/a~1b", "/c~0d");
  }

  @Test
  void propertiesAreValidatedAtTheirNestedPointers() {
    String schema =
        "{\"properties\":{\"address\":{\"properties\":{\"zip\":{\"type\":\"string\"}}}}}";

    assertThat(pointers(schema, "{\"address\":{\"zip\":19801}}")).containsExactly("/address/zip");
  }

  @Test
  void falseAdditionalPropertiesRejectsUndeclaredOnesAtTheirOwnPointer() {
    String schema = "{\"properties\":{\"a\":{}},\"additionalProperties\":false}";

    assertThat(violations(schema, "{\"a\":1,\"b\":2}"))
        .singleElement()
        .satisfies(
            violation -> {
              assertThat(violation.pointer()).isEqualTo("/b");
              assertThat(violation.message()).contains("b").doesNotStartWith("/");
            });
  }

  @Test
  void additionalPropertiesSchemaValidatesUndeclaredOnes() {
    String schema = "{\"properties\":{\"a\":{}},\"additionalProperties\":{\"type\":\"integer\"}}";

    assertThat(violations(schema, "{\"a\":\"x\",\"b\":2}")).isEmpty();
    assertThat(pointers(schema, "{\"b\":\"2\"}")).containsExactly("/b");
  }

  @Test
  void itemsValidatesEveryElementAtItsIndex() {
    assertThat(pointers("{\"items\":{\"type\":\"string\"}}", "[\"a\",2,\"c\",4]"))
        .containsExactly("/1", "/3");
  }

  @Test
  void minItemsAndMaxItemsBoundTheLength() {
    String schema = "{\"minItems\":1,\"maxItems\":2}";

    assertThat(pointers(schema, "[]")).containsExactly("");
    assertThat(violations(schema, "[1,2]")).isEmpty();
    assertThat(pointers(schema, "[1,2,3]")).containsExactly("");
  }

  @Test
  void lengthsCountCodePointsNotUtf16Units() {
    String schema = "{\"minLength\":2,\"maxLength\":2}";

    assertThat(violations(schema, "\"\uD83D\uDE00\uD83D\uDE00\"")).isEmpty();
    assertThat(pointers(schema, "\"\uD83D\uDE00\"")).containsExactly("");
    assertThat(pointers(schema, "\"abc\"")).containsExactly("");
  }

  @Test
  void patternIsSearchedUnanchoredAsEcmaScriptDoes() {
    assertThat(violations("{\"pattern\":\"[0-9]\"}", "\"abc1\"")).isEmpty();
    assertThat(pointers("{\"pattern\":\"^[0-9]{5}$\"}", "\"1234\"")).containsExactly("");
  }

  @Test
  void schemaWithAnInvalidPatternIsRejected() {
    assertThatThrownBy(() -> violations("{\"pattern\":\"[\"}", "\"x\""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void enumComparesJsonValuesWithNumbersByValue() {
    String schema = "{\"enum\":[\"Inc.\",1,{\"a\":[1]}]}";

    assertThat(violations(schema, "\"Inc.\"")).isEmpty();
    assertThat(violations(schema, "1.0")).isEmpty();
    assertThat(pointers(schema, "\"Corp\"")).containsExactly("");
  }

  @Test
  void constRequiresExactlyThatValue() {
    assertThat(violations("{\"const\":\"DE\"}", "\"DE\"")).isEmpty();
    assertThat(pointers("{\"const\":\"DE\"}", "\"NY\"")).containsExactly("");
  }

  @Test
  void minimumAndMaximumAreInclusive() {
    String schema = "{\"minimum\":1,\"maximum\":10}";

    assertThat(violations(schema, "1")).isEmpty();
    assertThat(violations(schema, "10")).isEmpty();
    assertThat(pointers(schema, "0.5")).containsExactly("");
    assertThat(pointers(schema, "11")).containsExactly("");
  }

  @Test
  void exclusiveBoundsAreNumbersAndExcludeTheBound() {
    String schema = "{\"exclusiveMinimum\":0,\"exclusiveMaximum\":1}";

    assertThat(violations(schema, "0.00001")).isEmpty();
    assertThat(pointers(schema, "0")).containsExactly("");
    assertThat(pointers(schema, "1")).containsExactly("");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ada@example.com", "first.last+tag@sub.example.co", "o'neil@example.org"})
  void plausibleEmailAddressesAreValid(String email) {
    assertThat(violations("{\"format\":\"email\"}", quote(email))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "ada",
        "ada@",
        "@example.com",
        "a b@example.com",
        "ada@@example.com",
        ".ada@example.com",
        "ada@-example.com"
      })
  void malformedEmailAddressesAreInvalid(String email) {
    assertThat(violations("{\"format\":\"email\"}", quote(email)))
        .singleElement()
        .satisfies(violation -> assertThat(violation.message()).contains("email"));
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
        .singleElement()
        .satisfies(violation -> assertThat(violation.message()).contains("date"));
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
        .singleElement()
        .satisfies(violation -> assertThat(violation.message()).contains("URI"));
  }

  @Test
  void unknownFormatsAreAnnotationsOnly() {
    assertThat(violations("{\"format\":\"x-colour\"}", "\"not a colour!\"")).isEmpty();
  }

  @Test
  void booleanSchemasAcceptEverythingOrNothing() {
    assertThat(violations("true", "{\"anything\":1}")).isEmpty();
    assertThat(pointers("false", "1")).containsExactly("");
  }

  @Test
  void annotationsDoNotConstrainValues() {
    assertThat(violations("{\"title\":\"T\",\"description\":\"D\",\"default\":5}", "\"x\""))
        .isEmpty();
  }

  @Test
  void violationsDeepInArraysOfObjectsCarryTheirFullPointer() {
    JsonNode schema = form("people").orElseThrow().jsonSchema();

    List<Violation> violations =
        FormValidator.validate(
            schema,
            parse(
                "{\"directors\":[{\"name\":\"A\",\"email\":\"a@example.com\"},{\"name\":\"B\","
                    + "\"email\":\"nope\"}],\"officers\":[]}"));

    assertThat(violations)
        .extracting(Violation::pointer)
        .containsExactly("/directors/1/email", "/officers");
  }

  @Test
  void everyViolationOfAFormHasAReadableMessageWithoutItsPointer() {
    JsonNode schema = form("registered_agent").orElseThrow().jsonSchema();

    List<Violation> violations =
        FormValidator.validate(schema, parse("{\"address\":{\"state\":\"NY\"},\"extra\":true}"));

    assertThat(violations)
        .isNotEmpty()
        .allSatisfy(
            violation -> {
              assertThat(violation.message()).isNotBlank();
              assertThat(violation.pointer()).startsWith("/");
            });
  }

  @Test
  void schemaWithoutADialectIsReadAsDraft2020() {
    // prefixItems exists only from draft 2020-12 on.
    String schema = "{\"prefixItems\":[{\"type\":\"string\"}]}";

    assertThat(pointers(schema, "[1]")).containsExactly("/0");
  }

  @Test
  void theSameSchemaGivesTheSameAnswerEveryTime() {
    JsonNode schema = form("company").orElseThrow().jsonSchema();

    assertThat(FormValidator.validate(schema, parse("{}")))
        .isEqualTo(FormValidator.validate(schema.deepCopy(), parse("{}")));
  }

  @Test
  void resultCannotBeChanged() {
    assertThat(FormValidator.validate(parse("{\"type\":\"string\"}"), parse("1"))).isUnmodifiable();
  }

  private static List<Violation> violations(String schema, String value) {
    return FormValidator.validate(parse(schema), parse(value));
  }

  private static List<String> pointers(String schema, String value) {
    return violations(schema, value).stream().map(Violation::pointer).toList();
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
