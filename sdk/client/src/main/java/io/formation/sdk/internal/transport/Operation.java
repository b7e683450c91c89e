package io.formation.sdk.internal.transport;

/** What a call does, for its trace: its name, its set, form and saved trace context (or null). */
public record Operation(String name, String setId, String formId, String link) {
  public static Operation named(String name) {
    return new Operation(name, null, null, null);
  }

  public Operation onSet(String id) {
    return new Operation(name, id, formId, link);
  }

  public Operation onForm(String id) {
    return new Operation(name, setId, id, link);
  }

  public Operation linkedTo(String context) {
    return new Operation(name, setId, formId, context);
  }
}
