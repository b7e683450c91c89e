package io.formation.examples.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.List;
import java.util.Optional;

/**
 * The forms of the {@value #TEMPLATE} template (a Delaware C-Corporation), in the order the sandbox
 * serves them.
 *
 * <pre>{@code
 * SandboxForm people = DelawareForms.byId("people").orElseThrow();
 * List<SchemaValidator.Violation> problems =
 *     SchemaValidator.validate(people.jsonSchema(), myValues);
 * }</pre>
 *
 * <p>Forms: {@code company}, {@code purpose}, {@code stock}, {@code people}, {@code
 * registered_agent}. Every object in the schemas closes itself with {@code "additionalProperties":
 * false}, so a misspelt field is reported instead of silently dropped.
 */
public final class DelawareForms {

  /** The template name accepted by {@code POST /v1/document_sets}. */
  public static final String TEMPLATE = "startup_delaware-corporation";

  private static final List<SandboxForm> FORMS =
      List.of(company(), purpose(), stock(), people(), registeredAgent());

  private DelawareForms() {}

  /** Returns every form, in the order the sandbox lists them. */
  public static List<SandboxForm> all() {
    return FORMS;
  }

  /** Returns the form with this id, if there is one. */
  public static Optional<SandboxForm> byId(String id) {
    return FORMS.stream().filter(form -> form.id().equals(id)).findFirst();
  }

  private static SandboxForm company() {
    return form(
        "company",
        "Company",
        """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "Company",
          "description": "The name under which the corporation will be registered in Delaware.",
          "type": "object",
          "properties": {
            "name": {
              "title": "Company name",
              "description": "The name without its suffix, for example Acme Robotics.",
              "type": "string",
              "minLength": 1,
              "maxLength": 120
            },
            "suffix": {
              "title": "Suffix",
              "description": "The corporate designator Delaware requires at the end of the name.",
              "type": "string",
              "enum": ["Inc.", "Corporation", "Incorporated", "Corp."]
            },
            "website": {
              "title": "Website",
              "description": "Optional public website of the company.",
              "type": "string",
              "format": "uri"
            }
          },
          "required": ["name", "suffix"],
          "additionalProperties": false
        }
        """,
        """
        {
          "type": "VerticalLayout",
          "elements": [
            {
              "type": "HorizontalLayout",
              "elements": [
                {"type": "Control", "scope": "#/properties/name"},
                {"type": "Control", "scope": "#/properties/suffix"}
              ]
            },
            {"type": "Control", "scope": "#/properties/website"}
          ]
        }
        """,
        """
        {"name": "Acme Robotics", "suffix": "Inc.", "website": "https://acme.example"}
        """);
  }

  private static SandboxForm purpose() {
    return form(
        "purpose",
        "Business purpose",
        """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "Business purpose",
          "description": "The purpose stated in the certificate of incorporation.",
          "type": "object",
          "properties": {
            "purpose": {
              "title": "Purpose",
              "description": "Most startups keep the broad default purpose.",
              "type": "string",
              "minLength": 10,
              "default": "Any lawful act or activity for which corporations may be organized \
        under the General Corporation Law of the State of Delaware."
            }
          },
          "required": ["purpose"],
          "additionalProperties": false
        }
        """,
        """
        {
          "type": "VerticalLayout",
          "elements": [
            {"type": "Control", "scope": "#/properties/purpose", "options": {"multi": true}}
          ]
        }
        """,
        """
        {
          "purpose": "Any lawful act or activity for which corporations may be organized \
        under the General Corporation Law of the State of Delaware."
        }
        """);
  }

  private static SandboxForm stock() {
    return form(
        "stock",
        "Authorized stock",
        """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "Authorized stock",
          "description": "The shares the corporation may issue.",
          "type": "object",
          "properties": {
            "authorized_shares": {
              "title": "Authorized shares",
              "description": "Shares of common stock the corporation may issue.",
              "type": "integer",
              "minimum": 1,
              "default": 10000000
            },
            "par_value": {
              "title": "Par value (USD)",
              "description": "Par value per share; a tiny one keeps Delaware franchise tax low.",
              "type": "number",
              "exclusiveMinimum": 0,
              "default": 0.00001
            }
          },
          "required": ["authorized_shares", "par_value"],
          "additionalProperties": false
        }
        """,
        """
        {
          "type": "VerticalLayout",
          "elements": [
            {
              "type": "HorizontalLayout",
              "elements": [
                {"type": "Control", "scope": "#/properties/authorized_shares"},
                {"type": "Control", "scope": "#/properties/par_value"}
              ]
            }
          ]
        }
        """,
        """
        {"authorized_shares": 10000000, "par_value": 0.00001}
        """);
  }

  private static SandboxForm people() {
    return form(
        "people",
        "Directors and officers",
        """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "Directors and officers",
          "description": "The initial board of directors and the officers they appoint.",
          "type": "object",
          "properties": {
            "directors": {
              "title": "Directors",
              "description": "At least one director.",
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "object",
                "properties": {
                  "name": {
                    "title": "Full name",
                    "description": "Legal name of the director.",
                    "type": "string",
                    "minLength": 1
                  },
                  "email": {
                    "title": "Email",
                    "description": "Where signature requests are sent.",
                    "type": "string",
                    "format": "email"
                  }
                },
                "required": ["name", "email"],
                "additionalProperties": false
              }
            },
            "officers": {
              "title": "Officers",
              "description": "At least one officer.",
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "object",
                "properties": {
                  "name": {
                    "title": "Full name",
                    "description": "Legal name of the officer.",
                    "type": "string",
                    "minLength": 1
                  },
                  "title": {
                    "title": "Title",
                    "description": "The office held.",
                    "type": "string",
                    "enum": ["CEO", "CFO", "Secretary", "President", "Treasurer"]
                  },
                  "email": {
                    "title": "Email",
                    "description": "Where signature requests are sent.",
                    "type": "string",
                    "format": "email"
                  }
                },
                "required": ["name", "title", "email"],
                "additionalProperties": false
              }
            }
          },
          "required": ["directors", "officers"],
          "additionalProperties": false
        }
        """,
        """
        {
          "type": "VerticalLayout",
          "elements": [
            {
              "type": "Control",
              "scope": "#/properties/directors",
              "options": {
                "detail": {
                  "type": "HorizontalLayout",
                  "elements": [
                    {"type": "Control", "scope": "#/properties/name"},
                    {"type": "Control", "scope": "#/properties/email"}
                  ]
                }
              }
            },
            {
              "type": "Control",
              "scope": "#/properties/officers",
              "options": {
                "detail": {
                  "type": "HorizontalLayout",
                  "elements": [
                    {"type": "Control", "scope": "#/properties/name"},
                    {"type": "Control", "scope": "#/properties/title"},
                    {"type": "Control", "scope": "#/properties/email"}
                  ]
                }
              }
            }
          ]
        }
        """,
        """
        {
          "directors": [{"name": "Ada Lovelace", "email": "ada@acme.example"}],
          "officers": [
            {"name": "Ada Lovelace", "title": "CEO", "email": "ada@acme.example"},
            {"name": "Charles Babbage", "title": "Secretary", "email": "charles@acme.example"}
          ]
        }
        """);
  }

  private static SandboxForm registeredAgent() {
    return form(
        "registered_agent",
        "Registered agent",
        """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "Registered agent",
          "description": "The agent in Delaware who accepts legal papers for the corporation.",
          "type": "object",
          "properties": {
            "name": {
              "title": "Agent name",
              "description": "Person or company acting as registered agent.",
              "type": "string",
              "minLength": 1
            },
            "address": {
              "title": "Address in Delaware",
              "description": "A physical street address in Delaware; no P.O. boxes.",
              "type": "object",
              "properties": {
                "street": {
                  "title": "Street",
                  "description": "Street and number.",
                  "type": "string",
                  "minLength": 1
                },
                "city": {
                  "title": "City",
                  "description": "City or town.",
                  "type": "string",
                  "minLength": 1
                },
                "state": {
                  "title": "State",
                  "description": "The agent must be in Delaware.",
                  "type": "string",
                  "const": "DE"
                },
                "zip": {
                  "title": "ZIP code",
                  "description": "Five-digit ZIP code.",
                  "type": "string",
                  "pattern": "^[0-9]{5}$"
                }
              },
              "required": ["street", "city", "state", "zip"],
              "additionalProperties": false
            },
            "email": {
              "title": "Agent email",
              "description": "Where the agent sends notices.",
              "type": "string",
              "format": "email"
            },
            "service_start": {
              "title": "Service start",
              "description": "The date the agent starts acting for the corporation.",
              "type": "string",
              "format": "date"
            }
          },
          "required": ["name", "address", "email", "service_start"],
          "additionalProperties": false
        }
        """,
        """
        {
          "type": "VerticalLayout",
          "elements": [
            {"type": "Control", "scope": "#/properties/name"},
            {
              "type": "Group",
              "label": "Address in Delaware",
              "elements": [
                {"type": "Control", "scope": "#/properties/address/properties/street"},
                {
                  "type": "HorizontalLayout",
                  "elements": [
                    {"type": "Control", "scope": "#/properties/address/properties/city"},
                    {"type": "Control", "scope": "#/properties/address/properties/state"},
                    {"type": "Control", "scope": "#/properties/address/properties/zip"}
                  ]
                }
              ]
            },
            {
              "type": "HorizontalLayout",
              "elements": [
                {"type": "Control", "scope": "#/properties/email"},
                {"type": "Control", "scope": "#/properties/service_start"}
              ]
            }
          ]
        }
        """,
        """
        {
          "name": "Delaware Registered Agents LLC",
          "address": {
            "street": "1000 N King St",
            "city": "Wilmington",
            "state": "DE",
            "zip": "19801"
          },
          "email": "agent@dra.example",
          "service_start": "2025-01-02"
        }
        """);
  }

  private static SandboxForm form(
      String id, String title, String schema, String uiSchema, String example) {
    try {
      return new SandboxForm(
          id,
          title,
          Json.MAPPER.readTree(schema),
          Json.MAPPER.readTree(uiSchema),
          Json.MAPPER.readTree(example));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("form " + id + " is not valid JSON", e);
    }
  }
}
