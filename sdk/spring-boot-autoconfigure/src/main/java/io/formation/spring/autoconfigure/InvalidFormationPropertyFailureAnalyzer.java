package io.formation.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Spring Boot's "APPLICATION FAILED TO START" report for a bad {@code formation.*} property. */
final class InvalidFormationPropertyFailureAnalyzer
    extends AbstractFailureAnalyzer<InvalidFormationPropertyException> {
  @Override
  protected FailureAnalysis analyze(Throwable root, InvalidFormationPropertyException failure) {
    return new FailureAnalysis(
        "The Formation client cannot be built: the configuration property '"
            + failure.property()
            + "' is not valid.\n\nReason: "
            + failure.reason(),
        "Correct '"
            + failure.property()
            + "' (docs/spring-boot.md lists the formation.* properties).",
        failure);
  }
}
