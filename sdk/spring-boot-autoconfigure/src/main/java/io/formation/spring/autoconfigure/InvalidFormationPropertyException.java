package io.formation.spring.autoconfigure;

/**
 * A {@code formation.*} property the client cannot be built with: which one, and why. Not Spring
 * Boot's {@code InvalidConfigurationPropertyValueException}, whose failure report prints the value
 * as configured, and that could be the token; {@link InvalidFormationPropertyFailureAnalyzer}
 * reports this one.
 */
final class InvalidFormationPropertyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String property;
  private final String reason;

  InvalidFormationPropertyException(String property, String reason) {
    super(property + ": " + reason);
    this.property = property;
    this.reason = reason;
  }

  String property() {
    return property;
  }

  String reason() {
    return reason;
  }
}
