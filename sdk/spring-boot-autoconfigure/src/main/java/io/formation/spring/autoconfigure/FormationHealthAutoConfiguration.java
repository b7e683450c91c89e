package io.formation.spring.autoconfigure;

import io.formation.sdk.FormationClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A health contributor named {@code formation}, off unless {@code
 * management.health.formation.enabled=true}: the service is rate-limited, and health is what load
 * balancers poll. When on, it asks the service at most once a minute ({@link HealthProbe}). Boot 4
 * keeps health contributors in spring-boot-health, Boot 3.5 in spring-boot-actuator: one
 * configuration for each.
 */
@AutoConfiguration(after = FormationAutoConfiguration.class)
@ConditionalOnProperty(name = "management.health.formation.enabled", havingValue = "true")
@ConditionalOnSingleCandidate(FormationClient.class)
public class FormationHealthAutoConfiguration {
  /** Only Spring creates it. */
  FormationHealthAutoConfiguration() {}

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class Boot4 {
    @Bean
    @ConditionalOnMissingBean(name = "formationHealthIndicator")
    org.springframework.boot.health.contributor.HealthIndicator formationHealthIndicator(
        FormationClient client) {
      HealthProbe probe = new HealthProbe(client, System::nanoTime);
      return () -> {
        HealthProbe.Result result = probe.check();
        return (switch (result.status()) {
              case UP -> org.springframework.boot.health.contributor.Health.up();
              case DOWN -> org.springframework.boot.health.contributor.Health.down();
              case UNKNOWN -> org.springframework.boot.health.contributor.Health.unknown();
            })
            .withDetail("detail", result.detail())
            .build();
      };
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  @ConditionalOnMissingClass("org.springframework.boot.health.contributor.HealthIndicator")
  static class Boot3 {
    @Bean
    @ConditionalOnMissingBean(name = "formationHealthIndicator")
    org.springframework.boot.actuate.health.HealthIndicator formationHealthIndicator(
        FormationClient client) {
      HealthProbe probe = new HealthProbe(client, System::nanoTime);
      return () -> {
        HealthProbe.Result result = probe.check();
        return (switch (result.status()) {
              case UP -> org.springframework.boot.actuate.health.Health.up();
              case DOWN -> org.springframework.boot.actuate.health.Health.down();
              case UNKNOWN -> org.springframework.boot.actuate.health.Health.unknown();
            })
            .withDetail("detail", result.detail())
            .build();
      };
    }
  }
}
