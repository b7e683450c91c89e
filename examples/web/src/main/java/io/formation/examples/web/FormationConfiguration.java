package io.formation.examples.web;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.FormationClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The one {@link FormationClient} of the application, shared by every request and closed with the
 * application. With no {@code formation.base-url} it talks to an embedded sandbox, started here.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FormationProperties.class)
class FormationConfiguration {
  private static final Logger log = LoggerFactory.getLogger(FormationConfiguration.class);

  /** The sandbox, when no base URL is configured; a {@link SandboxOptions} bean tunes it. */
  @Bean(destroyMethod = "close")
  @Conditional(NoBaseUrl.class)
  FormationSandbox formationSandbox(ObjectProvider<SandboxOptions> options) {
    FormationSandbox sandbox =
        FormationSandbox.start(options.getIfAvailable(SandboxOptions::defaults));
    log.info(
        "No formation.base-url (FORMATION_BASE_URL) is configured: using the embedded sandbox at {}",
        sandbox.baseUrl());
    return sandbox;
  }

  @Bean(destroyMethod = "close")
  FormationClient formationClient(
      FormationProperties properties, ObjectProvider<FormationSandbox> sandbox) {
    FormationClient.Builder builder = FormationClient.builder().userAgent("formation-web-example");
    FormationSandbox local = sandbox.getIfAvailable();
    if (local != null) {
      return builder.baseUrl(local.baseUrl()).accessToken(local.token()).build();
    }
    if (properties.accessToken() == null || properties.accessToken().isBlank()) {
      throw new IllegalStateException(
          "formation.base-url is set, so formation.access-token (FORMATION_ACCESS_TOKEN) is"
              + " required too");
    }
    return builder.baseUrl(properties.baseUrl()).accessToken(properties.accessToken()).build();
  }

  @Bean
  Jackson2Trees jackson2Trees() {
    return new Jackson2Trees();
  }

  static final class NoBaseUrl implements Condition {
    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
      String baseUrl = context.getEnvironment().getProperty("formation.base-url");
      return baseUrl == null || baseUrl.isBlank();
    }
  }
}
