package io.formation.examples.cli;

import static io.formation.examples.cli.AutofillTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.examples.cli.Prompter.FieldError;
import io.formation.examples.sandbox.DelawareForms;
import io.formation.examples.sandbox.SchemaValidator;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class PrompterTest {
  private static final JsonNode COMPANY = DelawareForms.byId("company").orElseThrow().jsonSchema();
  private static final JsonNode PEOPLE = DelawareForms.byId("people").orElseThrow().jsonSchema();
  private static final JsonNode STOCK = DelawareForms.byId("stock").orElseThrow().jsonSchema();
  private static final JsonNode AGENT =
      DelawareForms.byId("registered_agent").orElseThrow().jsonSchema();

  /** A prompter fed with the given lines, one answer each, that records what it prints. */
  private static final class Script {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final Prompter prompter;

    Script(String... answers) {
      String input = answers.length == 0 ? "" : String.join("\n", answers) + "\n";
      prompter =
          new Prompter(
              new BufferedReader(new StringReader(input)),
              new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    String output() {
      return printed.toString(StandardCharsets.UTF_8);
    }
  }

  private static JsonNode field(String type) {
    return json(
        "{\"type\": \"object\", \"required\": [\"x\"], \"properties\": {\"x\": " + type + "}}");
  }

  @Test
  void onlyFieldsNothingCoversAreAskedFor() {
    Script script = new Script("1", "");

    JsonNode values = script.prompter.fill("company", COMPANY, json("{\"name\": \"Acme\"}"));

    assertThat(values).isEqualTo(json("{\"name\": \"Acme\", \"suffix\": \"Inc.\"}"));
    assertThat(script.output())
        .startsWith("Form 'company' (Company) needs some values.")
        .contains("Suffix\n", "Website (optional)\n")
        .doesNotContain("Company name");
  }

  @Test
  void nothingIsPrintedWhenNothingIsMissing() {
    Script script = new Script();
    JsonNode example = DelawareForms.byId("people").orElseThrow().example();

    assertThat(script.prompter.fill("people", PEOPLE, example)).isEqualTo(example);
    assertThat(script.output()).isEmpty();
  }

  @Test
  void titleDescriptionAndNumberedChoicesAreShown() {
    Script script = new Script("2", "");

    script.prompter.fill("company", COMPANY, json("{\"name\": \"Acme\"}"));

    assertThat(script.output())
        .contains(
            "Suffix\n"
                + "  The corporate designator Delaware requires at the end of the name.\n"
                + "  1) Inc.\n"
                + "  2) Corporation\n"
                + "  3) Incorporated\n"
                + "  4) Corp.\n"
                + "  > ");
  }

  @Test
  void aChoiceIsPickedByNumberOrByTypingItAndAnythingElseIsAskedAgain() {
    Script script = new Script("9", "x", "corp.", "");

    JsonNode values = script.prompter.fill("company", COMPANY, json("{\"name\": \"Acme\"}"));

    assertThat(values.get("suffix").textValue()).isEqualTo("Corp.");
    assertThat(script.output()).contains("  ! choose a number from 1 to 4");
  }

  @Test
  void choicesCanComeFromTitledOneOfConsts() {
    Script script = new Script("2");
    JsonNode schema =
        field(
            "{\"oneOf\": [{\"const\": \"de\", \"title\": \"Delaware\"}, {\"const\": \"nv\","
                + " \"title\": \"Nevada\"}]}");

    assertThat(script.prompter.fill("f", schema, null)).isEqualTo(json("{\"x\": \"nv\"}"));
    assertThat(script.output()).contains("  1) Delaware\n  2) Nevada\n");
  }

  @Test
  void enterAcceptsTheDefaultShownInBrackets() {
    Script script = new Script("", "");

    JsonNode values = script.prompter.fill("stock", STOCK, null);

    assertThat(values.get("authorized_shares").longValue()).isEqualTo(10000000L);
    assertThat(values.get("par_value").decimalValue()).isEqualByComparingTo("0.00001");
    assertThat(script.output()).contains("  [10000000] > ", "  [0.00001] > ");
  }

  @Test
  void enterSkipsAnOptionalFieldButNotARequiredOne() {
    Script script = new Script("", "Acme", "1", "");

    JsonNode values = script.prompter.fill("company", COMPANY, null);

    assertThat(values).isEqualTo(json("{\"name\": \"Acme\", \"suffix\": \"Inc.\"}"));
    assertThat(script.output()).contains("  ! a value is required", "  [Enter to skip] > ");
  }

  @Test
  void wholeNumbersAreAskedAgainUntilTheyAreWholeAndInBounds() {
    Script script = new Script("many", "2.5", "0", "1,000");

    JsonNode values = script.prompter.fill("stock", STOCK, json("{\"par_value\": 1}"));

    assertThat(values.get("authorized_shares").intValue()).isEqualTo(1000);
    assertThat(script.output())
        .contains("  (whole number, at least 1)")
        .contains("  ! enter a whole number\n", "  ! must be at least 1\n");
  }

  @Test
  void exclusiveAndUpperBoundsAreChecked() {
    Script script = new Script("0", "10", "9.5");
    JsonNode schema = field("{\"type\": \"number\", \"exclusiveMinimum\": 0, \"maximum\": 9.5}");

    assertThat(script.prompter.fill("f", schema, null).get("x").decimalValue())
        .isEqualByComparingTo("9.5");
    assertThat(script.output())
        .contains("(number, greater than 0, at most 9.5)")
        .contains("  ! must be greater than 0", "  ! must be at most 9.5");
  }

  @Test
  void draft4ExclusiveBoundsAreChecked() {
    Script script = new Script("5", "6");
    JsonNode schema = field("{\"type\": \"integer\", \"minimum\": 5, \"exclusiveMinimum\": true}");

    assertThat(script.prompter.fill("f", schema, null)).isEqualTo(json("{\"x\": 6}"));
    assertThat(script.output()).contains("  ! must be greater than 5");
  }

  @Test
  void badEmailsAndDatesAreAskedAgain() {
    Script script =
        new Script(
            "Agent",
            "1 Main St",
            "Dover",
            "19901",
            "agent@",
            "agent@dra.example",
            "2025-13-01",
            "2025-02-01");

    JsonNode values = script.prompter.fill("registered_agent", AGENT, null);

    assertThat(SchemaValidator.validate(AGENT, values)).isEmpty();
    assertThat(values.get("service_start").textValue()).isEqualTo("2025-02-01");
    assertThat(script.output())
        .contains("  ! must be an email address such as alex@example.com")
        .contains("  ! must be a date such as 2025-01-15");
  }

  @Test
  void lengthsAndPatternsAreChecked() {
    Script script = new Script("ab", "abcdefg", "abc", "1234", "12345");
    JsonNode schema =
        json(
            """
            {"type": "object", "required": ["code", "zip"], "properties": {
              "code": {"type": "string", "minLength": 3, "maxLength": 5},
              "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}}
            """);

    assertThat(script.prompter.fill("f", schema, null))
        .isEqualTo(json("{\"code\": \"abc\", \"zip\": \"12345\"}"));
    assertThat(script.output())
        .contains(
            "  (3 to 5 characters)",
            "  ! must be at least 3 characters",
            "  ! must be at most 5 characters")
        .contains("  ! must match the pattern ^[0-9]{5}$");
  }

  @Test
  void booleansTakeYesOrNo() {
    Script script = new Script("maybe", "yes");

    assertThat(script.prompter.fill("f", field("{\"type\": \"boolean\"}"), null))
        .isEqualTo(json("{\"x\": true}"));
    assertThat(script.output()).contains("  (yes or no)", "  ! answer yes or no");
  }

  @Test
  void nestedFieldsAreAskedOneByOneWithTheirPath() {
    Script script = new Script("Agent", "1 Main St", "Dover", "19901", "a@b.co", "2025-02-01");

    JsonNode values = script.prompter.fill("registered_agent", AGENT, null);

    assertThat(values.at("/address"))
        .isEqualTo(
            json(
                "{\"street\": \"1 Main St\", \"city\": \"Dover\", \"state\": \"DE\", \"zip\":"
                    + " \"19901\"}"));
    assertThat(script.output())
        .contains("\nAddress in Delaware / Street\n", "\nAddress in Delaware / ZIP code\n")
        // A const has one possible value, so it is shown rather than asked.
        .contains("\nAddress in Delaware / State: DE (set by the form)\n");
  }

  @Test
  void arraysAskHowManyItemsWithinMinItemsThenEachItem() {
    Script script =
        new Script(
            "0",
            "2",
            "Ada",
            "ada@acme.example",
            "Bob",
            "bob@acme.example",
            "",
            "Cy",
            "3",
            "cy@acme.example");

    JsonNode values = script.prompter.fill("people", PEOPLE, null);

    assertThat(values)
        .isEqualTo(
            json(
                """
                {"directors": [{"name": "Ada", "email": "ada@acme.example"},
                               {"name": "Bob", "email": "bob@acme.example"}],
                 "officers": [{"name": "Cy", "title": "Secretary", "email": "cy@acme.example"}]}
                """));
    assertThat(script.output())
        .contains("Directors\n  At least one director.\n  How many? (at least 1)\n  [1] > ")
        .contains("  ! enter a whole number, at least 1")
        .contains("\nDirectors #2 / Email\n", "\nOfficers #1 / Title\n");
  }

  @Test
  void givenArraysAreCompletedItemByItemWithoutAskingHowMany() {
    Script script = new Script("ada@acme.example");
    JsonNode given =
        json(
            "{\"directors\": [{\"name\": \"Ada\"}], \"officers\": [{\"name\": \"Ada\", \"title\":"
                + " \"CEO\", \"email\": \"a@b.co\"}]}");

    JsonNode values = script.prompter.fill("people", PEOPLE, given);

    assertThat(values.at("/directors/0/email").textValue()).isEqualTo("ada@acme.example");
    assertThat(script.output()).doesNotContain("How many").contains("Directors #1 / Email");
  }

  @Test
  void anOptionalObjectIsOfferedWithAYesOrNoQuestion() {
    JsonNode schema =
        json(
            """
            {"type": "object", "properties": {
              "mailing": {"title": "Mailing address", "type": "object", "required": ["city"],
                "properties": {"city": {"type": "string"}}},
              "billing": {"title": "Billing address", "type": "object", "required": ["city"],
                "properties": {"city": {"type": "string"}}}}}
            """);
    Script script = new Script("", "maybe", "y", "Dover");

    assertThat(script.prompter.fill("f", schema, null))
        .isEqualTo(json("{\"billing\": {\"city\": \"Dover\"}}"));
    assertThat(script.output())
        .contains("Mailing address (optional)\n  Add it? [y/N] > ")
        .contains("  ! answer y or n")
        .contains("\nBilling address / City\n");
  }

  @Test
  void theEndOfInputIsAUsageErrorNamingTheForm() {
    Script script = new Script("Acme");

    assertThatThrownBy(() -> script.prompter.fill("company", COMPANY, null))
        .isInstanceOf(UsageException.class)
        .hasMessage(
            "input ended while asking for form 'company'; pass --answers FILE or --autofill");
  }

  @Test
  void reaskShowsEachMessageNextToItsFieldAndOffersTheCurrentValue() {
    Script script = new Script("", "ada@acme.example");
    JsonNode submitted =
        json("{\"directors\": [{\"name\": \"Ada\", \"email\": \"ada@\"}], \"officers\": []}");
    JsonNode before = submitted.deepCopy();

    JsonNode values =
        script.prompter.reask(
            "people",
            PEOPLE,
            submitted,
            List.of(
                new FieldError("/directors/0/name", "is on a sanctions list"),
                new FieldError("/directors/0/email", "must be a valid email address")));

    assertThat(values.at("/directors/0"))
        .isEqualTo(json("{\"name\": \"Ada\", \"email\": \"ada@acme.example\"}"));
    assertThat(submitted).isEqualTo(before);
    assertThat(script.output())
        .startsWith(
            "Form 'people' (Directors and officers): the service did not accept some values.")
        .contains(
            "Directors #1 / Full name (/directors/0/name)\n"
                + "  Legal name of the director.\n"
                + "  ! is on a sanctions list\n"
                + "  [Ada] > ")
        .contains("Directors #1 / Email (/directors/0/email)\n")
        .contains("  ! must be a valid email address\n  (email address)\n  [ada@] > ");
  }

  @Test
  void reaskOfAnArrayAsksHowManyAgainAndThenEachItem() {
    Script script = new Script("", "Ada", "1", "ada@acme.example");
    JsonNode submitted =
        json("{\"directors\": [{\"name\": \"Ada\", \"email\": \"a@b.co\"}], \"officers\": []}");

    JsonNode values =
        script.prompter.reask(
            "people",
            PEOPLE,
            submitted,
            List.of(new FieldError("/officers", "must have at least 1 item")));

    assertThat(values.get("officers"))
        .isEqualTo(
            json("[{\"name\": \"Ada\", \"title\": \"CEO\", \"email\": \"ada@acme.example\"}]"));
    assertThat(script.output())
        .contains("  ! must have at least 1 item\n  How many? (at least 1)\n  [1] > ");
  }

  @Test
  void reaskPrintsMessagesWithoutAFieldFirstAndAsksNothingForThem() {
    Script script = new Script("Acme");
    JsonNode submitted = json("{\"name\": \"\", \"suffix\": \"Inc.\"}");

    JsonNode values =
        script.prompter.reask(
            "company",
            COMPANY,
            submitted,
            List.of(
                new FieldError("/name", "must not be empty"),
                new FieldError("", "the company name is taken"),
                new FieldError("/data/attributes/nope", "unknown")));

    assertThat(values).isEqualTo(json("{\"name\": \"Acme\", \"suffix\": \"Inc.\"}"));
    assertThat(script.output())
        .contains(
            "  ! the company name is taken\n"
                + "  ! /data/attributes/nope: unknown\n"
                + "\n"
                + "Company name (/name)\n");
  }

  @Test
  void reaskWithOnlyMessagesForTheWholeFormReturnsTheValuesUnchanged() {
    Script script = new Script();
    JsonNode submitted = json("{\"name\": \"Acme\", \"suffix\": \"Inc.\"}");

    assertThat(
            script.prompter.reask("company", COMPANY, submitted, List.of(new FieldError("", "no"))))
        .isEqualTo(submitted);
  }

  @Test
  void reaskTakesMessagesKeyedByPointerAsTheSdkGivesThem() {
    Script script = new Script("Acme");
    Map<String, String> messages = new LinkedHashMap<>();
    messages.put("", "the company name is taken");
    messages.put("/name", "must not be empty");

    JsonNode values =
        script.prompter.reask(
            "company", COMPANY, json("{\"name\": \"\", \"suffix\": \"Inc.\"}"), messages);

    assertThat(values.get("name").textValue()).isEqualTo("Acme");
    assertThat(script.output())
        .contains("  ! the company name is taken\n", "  ! must not be empty\n");
  }

  @Test
  void reaskCreatesAFieldThatWasNotSubmitted() {
    Script script = new Script("https://acme.example");

    JsonNode values =
        script.prompter.reask(
            "company",
            COMPANY,
            json("{\"name\": \"Acme\", \"suffix\": \"Inc.\"}"),
            List.of(new FieldError("/website", "is required for this template")));

    assertThat(values.get("website").textValue()).isEqualTo("https://acme.example");
  }

  @Test
  void requireCompleteNamesTheFormAndTheFieldWithoutAValue() {
    JsonNode given =
        json(
            "{\"directors\": [{\"name\": \"Ada\"}], \"officers\": [{\"name\": \"Ada\", \"title\":"
                + " \"CEO\", \"email\": \"a@b.co\"}]}");

    assertThatThrownBy(() -> Prompter.requireComplete("people", PEOPLE, given))
        .isInstanceOf(UsageException.class)
        .hasMessage(
            "form 'people' field '/directors/0/email' has no value: pass --answers FILE or"
                + " --autofill")
        .satisfies(e -> assertThat(((UsageException) e).exitCode()).isEqualTo(2));
  }

  @Test
  void requireCompleteListsSeveralMissingFieldsAtOnce() {
    assertThatThrownBy(() -> Prompter.requireComplete("registered_agent", AGENT, json("{}")))
        .hasMessage(
            "form 'registered_agent' fields '/name', '/address/street', '/address/city',"
                + " '/address/zip', '/email' and 1 more have no value: pass --answers FILE or"
                + " --autofill");
  }

  @Test
  void requireCompleteAppliesDefaultsAndIgnoresOptionalFields() {
    JsonNode stock = Prompter.requireComplete("stock", STOCK, null);

    assertThat(stock.get("authorized_shares").longValue()).isEqualTo(10000000L);
    assertThat(stock.get("par_value").decimalValue()).isEqualByComparingTo("0.00001");
    assertThat(
            Prompter.requireComplete(
                "company", COMPANY, json("{\"name\": \"Acme\", \"suffix\": \"Inc.\"}")))
        .isEqualTo(json("{\"name\": \"Acme\", \"suffix\": \"Inc.\"}"));
  }
}
