package io.formation.sandbox;

import java.util.List;
import java.util.Optional;

/** The Delaware template's forms, as tests name them. */
final class Delaware {
  static final List<SandboxForm> FORMS =
      SandboxTemplates.forms(SandboxTemplates.DELAWARE_CORPORATION);

  private Delaware() {}

  static Optional<SandboxForm> form(String id) {
    return SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, id);
  }
}
