package io.formation.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.examples.cli.Autofill.MissingField;
import io.formation.examples.sandbox.DelawareForms;
import io.formation.examples.sandbox.SandboxForm;
import io.formation.examples.sandbox.SchemaValidator;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

final class AutofillTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode sampleOf(String schema) {
    return Autofill.sample(json(schema));
  }

  private static void assertValid(JsonNode schema, JsonNode value) {
    assertThat(SchemaValidator.validate(schema, value)).as("violations of %s", value).isEmpty();
  }

  @Test
  void givenValuesWinAndNestedObjectsAreMergedFieldByField() {
    JsonNode schema =
        json(
            """
            {"type": "object", "required": ["name", "address"], "properties": {
              "name": {"type": "string"},
              "address": {"type": "object", "required": ["street", "city"], "properties": {
                "street": {"type": "string"}, "city": {"type": "string"}}}}}
            """);
    JsonNode given = json("{\"address\": {\"city\": \"Dover\"}, \"extra\": 1}");

    JsonNode filled = Autofill.fill(schema, given);

    assertThat(filled.at("/address/city").textValue()).isEqualTo("Dover");
    assertThat(filled.at("/address/street").textValue()).isEqualTo("Sample street");
    assertThat(filled.at("/name").textValue()).isEqualTo("Sample name");
    assertThat(filled.get("extra").intValue()).isEqualTo(1);
    assertThat(given).isEqualTo(json("{\"address\": {\"city\": \"Dover\"}, \"extra\": 1}"));
  }

  @Test
  void nullCountsAsNotGiven() {
    JsonNode filled =
        Autofill.fill(
            json("{\"properties\": {\"name\": {\"type\": \"string\"}}}"), json("{\"name\": null}"));

    assertThat(filled.get("name").textValue()).isEqualTo("Sample name");
  }

  @Test
  void defaultIsPreferredToExamplesConstAndEnum() {
    assertThat(
            sampleOf(
                "{\"default\": \"d\", \"examples\": [\"e\"], \"const\": \"c\", \"enum\": [\"c\"]}"))
        .isEqualTo(json("\"d\""));
    assertThat(sampleOf("{\"examples\": [\"e\", \"f\"], \"const\": \"c\", \"enum\": [\"c\"]}"))
        .isEqualTo(json("\"e\""));
    assertThat(sampleOf("{\"const\": \"c\", \"enum\": [\"x\", \"c\"]}")).isEqualTo(json("\"c\""));
    assertThat(sampleOf("{\"type\": \"string\", \"enum\": [\"x\", \"y\"]}"))
        .isEqualTo(json("\"x\""));
  }

  @Test
  void oneOfConstsActAsAnEnumWithTitles() {
    JsonNode schema =
        json(
            """
            {"oneOf": [{"const": "de", "title": "Delaware"},
                       {"const": "nv", "title": "Nevada"}]}
            """);

    assertThat(Autofill.sample(schema)).isEqualTo(json("\"de\""));
  }

  @Test
  void stringsReadLikeTheirTitleOrPropertyName() {
    JsonNode filled =
        sampleOf(
            """
            {"properties": {
              "companyName": {"type": "string"},
              "legal_name": {"type": "string"},
              "x": {"type": "string", "title": "Company name"},
              "ein": {"type": "string", "title": "EIN of the company"}}}
            """);

    assertThat(filled.get("companyName").textValue()).isEqualTo("Sample company name");
    assertThat(filled.get("legal_name").textValue()).isEqualTo("Sample legal name");
    assertThat(filled.get("x").textValue()).isEqualTo("Sample company name");
    assertThat(filled.get("ein").textValue()).isEqualTo("Sample EIN of the company");
  }

  @Test
  void stringsKeepWithinMinLengthAndMaxLength() {
    JsonNode filled =
        sampleOf(
            """
            {"properties": {
              "short": {"type": "string", "maxLength": 8},
              "long": {"type": "string", "minLength": 40},
              "exact": {"type": "string", "minLength": 3, "maxLength": 3},
              "empty": {"type": "string", "maxLength": 0}}}
            """);

    assertThat(filled.get("short").textValue()).isEqualTo("Sample s");
    assertThat(filled.get("long").textValue())
        .isEqualTo("Sample long Sample long Sample long Sample long");
    assertThat(filled.get("exact").textValue()).isEqualTo("Sam");
    assertThat(filled.get("empty").textValue()).isEmpty();
  }

  @Test
  void formatsGetValuesOfTheirShape() {
    JsonNode filled =
        sampleOf(
            """
            {"properties": {
              "email": {"type": "string", "format": "email"},
              "date": {"type": "string", "format": "date"},
              "dateTime": {"type": "string", "format": "date-time"},
              "uri": {"type": "string", "format": "uri"},
              "tight": {"type": "string", "format": "email", "maxLength": 10}}}
            """);

    assertThat(filled.get("email").textValue()).isEqualTo("alex@example.com");
    assertThat(LocalDate.parse(filled.get("date").textValue())).isNotNull();
    assertThat(OffsetDateTime.parse(filled.get("dateTime").textValue())).isNotNull();
    assertThat(filled.get("uri").textValue()).isEqualTo("https://example.com");
    assertThat(filled.get("tight").textValue()).isEqualTo("a@b.co");
  }

  @Test
  void simplePatternsAreMatched() {
    JsonNode filled =
        sampleOf(
            """
            {"properties": {
              "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
              "code": {"type": "string", "pattern": "^[A-Z]{2}-\\\\d{3}$"},
              "ssn": {"type": "string", "pattern": "^\\\\d{3}-\\\\d{2}-\\\\d{4}$"},
              "word": {"type": "string", "pattern": "^(?:ab|cd)+x?$", "minLength": 6},
              "letters": {"type": "string", "pattern": "^[A-Za-z ]+$"}}}
            """);

    assertThat(filled.get("zip").textValue()).isEqualTo("12345");
    assertThat(filled.get("code").textValue()).isEqualTo("AB-345");
    assertThat(filled.get("ssn").textValue()).isEqualTo("123-45-6789");
    assertThat(filled.get("word").textValue())
        .matches("^(?:ab|cd)+x?$")
        .hasSizeGreaterThanOrEqualTo(6);
    // Readable text is kept when it happens to match.
    assertThat(filled.get("letters").textValue()).isEqualTo("Sample letters");
  }

  @Test
  void integersKeepToInclusiveAndExclusiveBounds() {
    assertThat(sampleOf("{\"type\": \"integer\"}")).isEqualTo(json("1"));
    assertThat(sampleOf("{\"type\": \"integer\", \"minimum\": 1000}")).isEqualTo(json("1000"));
    assertThat(sampleOf("{\"type\": \"integer\", \"exclusiveMinimum\": 5}")).isEqualTo(json("6"));
    assertThat(sampleOf("{\"type\": \"integer\", \"maximum\": -3}")).isEqualTo(json("-3"));
    assertThat(sampleOf("{\"type\": \"integer\", \"exclusiveMaximum\": 0}")).isEqualTo(json("-1"));
    assertThat(sampleOf("{\"type\": \"integer\", \"minimum\": 1.5}")).isEqualTo(json("2"));
    assertThat(sampleOf("{\"type\": \"integer\", \"minimum\": 3, \"multipleOf\": 5}"))
        .isEqualTo(json("5"));
  }

  @Test
  void draft4BooleanExclusiveBoundsAreTolerated() {
    assertThat(sampleOf("{\"type\": \"integer\", \"minimum\": 5, \"exclusiveMinimum\": true}"))
        .isEqualTo(json("6"));
    assertThat(sampleOf("{\"type\": \"integer\", \"maximum\": 0, \"exclusiveMaximum\": true}"))
        .isEqualTo(json("-1"));
    assertThat(sampleOf("{\"type\": \"integer\", \"minimum\": 5, \"exclusiveMinimum\": false}"))
        .isEqualTo(json("5"));
  }

  @Test
  void numbersKeepToBoundsEvenWhenOneDoesNotFit() {
    assertThat(sampleOf("{\"type\": \"number\", \"exclusiveMinimum\": 0}")).isEqualTo(json("1"));
    assertThat(
            sampleOf("{\"type\": \"number\", \"exclusiveMinimum\": 0, \"exclusiveMaximum\": 1}")
                .toString())
        .isEqualTo("0.5");
    assertThat(sampleOf("{\"type\": \"number\", \"minimum\": 2.5}").toString()).isEqualTo("2.5");
    assertThat(sampleOf("{\"type\": \"number\", \"maximum\": 0.25}").toString()).isEqualTo("0.25");
    assertThat(sampleOf("{\"type\": \"number\", \"multipleOf\": 0.01}")).isEqualTo(json("1"));
  }

  @Test
  void arraysGetOneItemUnlessMinItemsAsksForMoreOrMaxItemsForLess() {
    assertThat(sampleOf("{\"type\": \"array\", \"items\": {\"type\": \"integer\"}}"))
        .isEqualTo(json("[1]"));
    assertThat(
            sampleOf("{\"type\": \"array\", \"minItems\": 3, \"items\": {\"type\": \"integer\"}}"))
        .isEqualTo(json("[1, 2, 3]"));
    assertThat(
            sampleOf("{\"type\": \"array\", \"maxItems\": 0, \"items\": {\"type\": \"integer\"}}"))
        .isEqualTo(json("[]"));
  }

  @Test
  void arrayItemsDifferSoUniqueItemsHolds() {
    JsonNode filled =
        sampleOf(
            """
            {"properties": {
              "names": {"type": "array", "minItems": 2, "uniqueItems": true,
                "items": {"type": "string"}},
              "states": {"type": "array", "minItems": 2, "uniqueItems": true,
                "items": {"enum": ["DE", "NV"]}},
              "emails": {"type": "array", "minItems": 2,
                "items": {"type": "string", "format": "email"}}}}
            """);

    assertThat(filled.get("names")).isEqualTo(json("[\"Sample names\", \"Sample names 2\"]"));
    assertThat(filled.get("states")).isEqualTo(json("[\"DE\", \"NV\"]"));
    assertThat(filled.get("emails"))
        .isEqualTo(json("[\"alex@example.com\", \"alex2@example.com\"]"));
  }

  @Test
  void typeArraysUseTheFirstTypeThatIsNotNull() {
    assertThat(sampleOf("{\"type\": [\"null\", \"integer\"]}")).isEqualTo(json("1"));
    assertThat(sampleOf("{\"type\": [\"string\", \"null\"], \"title\": \"Nickname\"}"))
        .isEqualTo(json("\"Sample nickname\""));
    assertThat(sampleOf("{\"type\": \"null\"}").isNull()).isTrue();
  }

  @Test
  void booleansAreFalse() {
    assertThat(sampleOf("{\"type\": \"boolean\"}")).isEqualTo(json("false"));
  }

  @Test
  void optionalPropertiesAreFilledToo() {
    JsonNode filled =
        sampleOf(
            """
            {"type": "object", "required": ["a"], "properties": {
              "a": {"type": "string"}, "b": {"type": "integer"}, "never": false}}
            """);

    assertThat(filled).isEqualTo(json("{\"a\": \"Sample a\", \"b\": 1}"));
  }

  @Test
  void localRefsAllOfAndAnyOfAreFollowed() {
    JsonNode schema =
        json(
            """
            {"$defs": {
               "person": {"type": "object", "required": ["email"], "properties": {
                 "email": {"type": "string", "format": "email"}}},
               "named": {"properties": {"name": {"type": "string", "maxLength": 4}}}},
             "type": "object",
             "properties": {
               "ceo": {"$ref": "#/$defs/person"},
               "cfo": {"allOf": [{"$ref": "#/$defs/person"}, {"$ref": "#/$defs/named"}]},
               "nickname": {"anyOf": [{"type": "null"}, {"type": "string", "format": "date"}]}}}
            """);

    JsonNode filled = Autofill.sample(schema);

    assertThat(filled.at("/ceo")).isEqualTo(json("{\"email\": \"alex@example.com\"}"));
    assertThat(filled.at("/cfo"))
        .isEqualTo(json("{\"email\": \"alex@example.com\", \"name\": \"Samp\"}"));
    assertThat(filled.at("/nickname").textValue()).isEqualTo("2025-01-15");
  }

  @Test
  void recursiveSchemasStopAtTheFirstOptionalRepeat() {
    JsonNode schema =
        json(
            """
            {"$ref": "#/$defs/node",
             "$defs": {"node": {"type": "object", "required": ["name"], "properties": {
               "name": {"type": "string"},
               "parent": {"$ref": "#/$defs/node"},
               "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}
            """);

    JsonNode filled = Autofill.sample(schema);

    assertThat(filled.get("name").textValue()).isEqualTo("Sample name");
    assertThat(filled.at("/parent/name").textValue()).isEqualTo("Sample name");
    assertThat(filled.at("/parent/parent").isMissingNode()).isTrue();
    assertValid(json("{\"type\": \"object\"}"), filled);
  }

  @Test
  void givenArraysKeepTheirItemsFillTheirGapsAndReachMinItems() {
    JsonNode schema =
        json(
            """
            {"type": "object", "properties": {"directors": {"type": "array", "minItems": 2,
              "items": {"type": "object", "required": ["name", "email"], "properties": {
                "name": {"type": "string"}, "email": {"type": "string", "format": "email"}}}}}}
            """);

    JsonNode filled = Autofill.fill(schema, json("{\"directors\": [{\"name\": \"Ada\"}]}"));

    assertThat(filled.get("directors"))
        .isEqualTo(
            json(
                """
                [{"name": "Ada", "email": "alex@example.com"},
                 {"name": "Sample name 2", "email": "alex2@example.com"}]
                """));
  }

  @Test
  void theSameSchemaAlwaysGivesTheSameValues() {
    for (SandboxForm form : DelawareForms.all()) {
      assertThat(Autofill.sample(form.jsonSchema())).isEqualTo(Autofill.sample(form.jsonSchema()));
    }
  }

  @Test
  void sampleValuesOfEverySandboxFormAreValid() {
    for (SandboxForm form : DelawareForms.all()) {
      assertValid(form.jsonSchema(), Autofill.sample(form.jsonSchema()));
    }
  }

  @Test
  void sandboxFormDefaultsAndConstsAreUsed() {
    JsonNode stock = Autofill.sample(DelawareForms.byId("stock").orElseThrow().jsonSchema());
    JsonNode agent =
        Autofill.sample(DelawareForms.byId("registered_agent").orElseThrow().jsonSchema());

    assertThat(stock.get("authorized_shares").intValue()).isEqualTo(10000000);
    assertThat(agent.at("/address/state").textValue()).isEqualTo("DE");
    assertThat(agent.at("/address/zip").textValue()).isEqualTo("12345");
  }

  @Test
  void partlyGivenSandboxValuesAreCompletedValidly() {
    JsonNode people = DelawareForms.byId("people").orElseThrow().jsonSchema();
    JsonNode given =
        json("{\"directors\": [{\"name\": \"Ada\"}], \"officers\": [{}, {\"title\": \"CFO\"}]}");

    JsonNode filled = Autofill.fill(people, given);

    assertValid(people, filled);
    assertThat(filled.at("/officers/1/title").textValue()).isEqualTo("CFO");
    assertThat(filled.at("/directors/0/name").textValue()).isEqualTo("Ada");
  }

  @Test
  void generatedValuesValidateForAssortedSchemas() {
    List<String> schemas =
        List.of(
            """
            {"type": "object", "required": ["company", "founders"], "additionalProperties": false,
             "properties": {
               "company": {"type": "object", "required": ["name", "zip", "founded"],
                 "additionalProperties": false,
                 "properties": {
                   "name": {"type": "string", "minLength": 30, "maxLength": 40},
                   "zip": {"type": "string", "pattern": "^[0-9]{5}(-[0-9]{4})?$"},
                   "founded": {"type": "string", "format": "date"},
                   "site": {"type": "string", "format": "uri"},
                   "employees": {"type": "integer", "minimum": 2, "maximum": 3},
                   "share": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}}},
               "founders": {"type": "array", "minItems": 3, "maxItems": 4,
                 "items": {"type": "object", "required": ["email", "role"],
                   "properties": {
                     "email": {"type": "string", "format": "email"},
                     "role": {"type": "string", "enum": ["CEO", "CTO"]},
                     "equity": {"type": "number", "minimum": 0, "maximum": 0.5}}}}}}
            """,
            """
            {"type": "array",
             "items": {"type": ["string", "null"], "minLength": 2, "maxLength": 5}}
            """,
            """
            {"type": "object", "properties": {"tags": {"type": "array", "maxItems": 2,
              "items": {"type": "string", "pattern": "^[a-z]+$", "minLength": 12}}}}
            """);
    for (String schema : schemas) {
      assertValid(json(schema), Autofill.sample(json(schema)));
    }
  }

  @Test
  void missingListsEveryUncoveredLeafWithWhetherItIsRequired() {
    JsonNode schema =
        json(
            """
            {"type": "object", "required": ["name", "address", "directors"], "properties": {
              "name": {"type": "string"},
              "nickname": {"type": "string"},
              "address": {"type": "object", "required": ["street"], "properties": {
                "street": {"type": "string"}, "unit": {"type": "string"}}},
              "mailing": {"type": "object", "required": ["street"], "properties": {
                "street": {"type": "string"}}},
              "directors": {"type": "array", "items": {"type": "object", "required": ["email"],
                "properties": {"email": {"type": "string"}}}}}}
            """);

    List<MissingField> missing =
        Autofill.missing(schema, json("{\"name\": \"Acme\", \"directors\": [{}]}"));

    assertThat(missing)
        .containsExactly(
            new MissingField("/nickname", false),
            new MissingField("/address/street", true),
            new MissingField("/address/unit", false),
            new MissingField("/mailing/street", false),
            new MissingField("/directors/0/email", true));
  }

  @Test
  void missingReportsAbsentArraysAndShortArraysAsOneField() {
    JsonNode schema =
        json(
            """
            {"type": "object", "required": ["a", "b"], "properties": {
              "a": {"type": "array", "items": {"type": "string"}},
              "b": {"type": "array", "minItems": 2, "items": {"type": "string"}}}}
            """);

    assertThat(Autofill.missing(schema, json("{\"b\": [\"x\"]}")))
        .containsExactly(new MissingField("/a", true), new MissingField("/b/1", true));
  }

  @Test
  void nothingIsMissingOnceFilled() {
    for (SandboxForm form : DelawareForms.all()) {
      assertThat(Autofill.missing(form.jsonSchema(), Autofill.sample(form.jsonSchema()))).isEmpty();
    }
  }

  @Test
  void applyDefaultsAddsDefaultsAndConstsOnly() {
    JsonNode schema =
        json(
            """
            {"type": "object", "required": ["a", "address"], "properties": {
              "a": {"type": "string", "default": "A"},
              "b": {"type": "string"},
              "c": {"type": "integer", "default": 3},
              "address": {"type": "object", "properties": {
                "state": {"const": "DE"}, "street": {"type": "string"}}},
              "mailing": {"type": "object", "properties": {"state": {"const": "DE"}}}}}
            """);

    assertThat(Autofill.applyDefaults(schema, json("{\"a\": \"given\"}")))
        .isEqualTo(json("{\"a\": \"given\", \"c\": 3, \"address\": {\"state\": \"DE\"}}"));
  }

  @Test
  void escapedPointersNameOddPropertyNames() {
    JsonNode schema =
        json("{\"required\": [\"a/b\", \"c~d\"], \"properties\": {\"a/b\": {}, \"c~d\": {}}}");

    assertThat(Autofill.missing(schema, null))
        .extracting(MissingField::pointer)
        .containsExactly("/a~1b", "/c~0d");
  }
}
