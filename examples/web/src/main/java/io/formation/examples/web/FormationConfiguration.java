package io.formation.examples.web;

import io.formation.sdk.FormationClient;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one {@link FormationClient} of the application, closed with it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FormationProperties.class)
class FormationConfiguration {

  @Bean(destroyMethod = "close")
  FormationClient formationClient(FormationProperties properties) {
    if (properties.accessToken() == null || properties.accessToken().isBlank()) {
      throw new IllegalStateException(
          "formation.base-url is set, so formation.access-token (FORMATION_ACCESS_TOKEN) is"
              + " required too");
    }
    return FormationClient.builder()
        .baseUrl(properties.baseUrl())
        .accessToken(properties.accessToken())
        .userAgent("formation-web-example")
        .build();
  }

  @Bean
  Jackson2Trees jackson2Trees() {
    return new Jackson2Trees();
  }
}
