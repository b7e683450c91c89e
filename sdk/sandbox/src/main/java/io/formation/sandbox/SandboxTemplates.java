package io.formation.sandbox;

import java.util.List;
import java.util.Optional;

/**
 * The templates a {@link FormationSandbox} accepts in {@code POST /v1/document_sets}, and their
 * forms, as the sandbox serves them. The forms are JSON resources of this artifact ({@code
 * io/formation/sandbox/<template>/<form>.schema.json}, {@code .ui-schema.json}, {@code
 * .example.json}).
 *
 * <pre>{@code
 * for (SandboxForm form : SandboxTemplates.forms(SandboxTemplates.DELAWARE_CORPORATION)) {
 *   client.forms().submit(formsById.get(form.id()), form.example());
 * }
 * }</pre>
 */
public final class SandboxTemplates {

  /** A Delaware C-Corporation: forms {@code company, purpose, stock, people, registered_agent}. */
  public static final String DELAWARE_CORPORATION = "startup_delaware-corporation";

  private SandboxTemplates() {}

  /** Returns the names of the templates the sandbox accepts. */
  public static List<String> names() {
    return List.copyOf(Template.ALL.keySet());
  }

  /**
   * Returns the forms of a template, in the order the sandbox lists them.
   *
   * @throws IllegalArgumentException if the sandbox has no such template
   */
  public static List<SandboxForm> forms(String template) {
    Template found = Template.ALL.get(template);
    if (found == null) {
      throw new IllegalArgumentException("unknown template " + template + "; known: " + names());
    }
    return found.forms();
  }

  /** Returns the form of a template with this id, if there is one. */
  public static Optional<SandboxForm> form(String template, String formId) {
    return forms(template).stream().filter(form -> form.id().equals(formId)).findFirst();
  }
}
