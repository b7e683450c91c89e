package io.formation.spring.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes the SDK's models and JSON trees plain return values of a controller: each is written as the
 * JSON the service sent ({@code Form}, {@code DocumentSet}, {@code Page<Team>}...), by Spring
 * Boot's JSON mapper in either Jackson generation. Spring Boot adds a module bean to the mapper it
 * configures (and so to its HTTP message converters): Boot 3.5 takes Jackson 2 modules, Boot 4
 * Jackson 3 modules, for which the SDK's Jackson 2 trees need writing and reading too.
 */
@AutoConfiguration(
    beforeName = {
      "org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration",
      "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration"
    })
public class FormationJacksonAutoConfiguration {
  /** Only Spring creates it. */
  FormationJacksonAutoConfiguration() {}

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.fasterxml.jackson.databind.Module")
  static class Jackson2 {
    @Bean
    @ConditionalOnMissingBean(name = "formationJackson2Module")
    com.fasterxml.jackson.databind.Module formationJackson2Module() {
      return new Jackson2Models();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "tools.jackson.databind.JacksonModule")
  static class Jackson3 {
    @Bean
    @ConditionalOnMissingBean(name = "formationJackson3Module")
    tools.jackson.databind.JacksonModule formationJackson3Module() {
      return new Jackson3Trees();
    }
  }
}
