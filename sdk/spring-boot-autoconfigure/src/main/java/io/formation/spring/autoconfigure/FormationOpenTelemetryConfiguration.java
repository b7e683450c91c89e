package io.formation.spring.autoconfigure;

import io.formation.opentelemetry.FormationOpenTelemetry;
import io.formation.sdk.FormationTracer;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The client's spans and metrics on OpenTelemetry, when formation-opentelemetry is on the class
 * path and the application has an {@code OpenTelemetry} bean (its own, Spring Boot's or the
 * OpenTelemetry starter's); {@code formation.opentelemetry.enabled=false} turns it off.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(
    name = {
      "io.formation.opentelemetry.FormationOpenTelemetry",
      "io.opentelemetry.api.OpenTelemetry"
    })
@ConditionalOnBean(type = "io.opentelemetry.api.OpenTelemetry")
@ConditionalOnProperty(
    name = "formation.opentelemetry.enabled",
    havingValue = "true",
    matchIfMissing = true)
class FormationOpenTelemetryConfiguration {
  @Bean
  @ConditionalOnMissingBean
  FormationTracer formationTracer(OpenTelemetry openTelemetry) {
    return FormationOpenTelemetry.create(openTelemetry);
  }
}
