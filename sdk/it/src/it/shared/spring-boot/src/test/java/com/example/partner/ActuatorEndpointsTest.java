package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.security.Principal;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Actuator's configprops and env endpoints, told to show values ({@code always}, or {@code
 * when-authorized} to a user the server authenticated), mask the access token wherever it is
 * configured: the docs' {@code formation.access-token=${FORMATION_ACCESS_TOKEN}} with the variable
 * set.
 */
class ActuatorEndpointsTest {
  static final String TOKEN = "tok-9e41b7-never-shown";

  ConfigurableApplicationContext application;
  String actuator;

  void start(String showValues) {
    SpringApplication partner = new SpringApplication(PartnerApplication.class);
    // The environment variable, as the operating system would give it.
    partner.addInitializers(
        context ->
            context
                .getEnvironment()
                .getPropertySources()
                .addLast(
                    new SystemEnvironmentPropertySource(
                        "partnerEnvironment", Map.of("FORMATION_ACCESS_TOKEN", TOKEN))));
    // Every request comes from a user the server authenticated, as container security would say.
    partner.addInitializers(
        context ->
            ((GenericApplicationContext) context)
                .registerBean("authenticatedUser", Filter.class, () -> AUTHENTICATED));
    application =
        partner.run(
            "--server.port=0",
            "--formation.base-url=https://api.example.com",
            "--formation.access-token=${FORMATION_ACCESS_TOKEN}",
            "--management.endpoints.web.exposure.include=configprops,env",
            "--management.endpoint.configprops.show-values=" + showValues,
            "--management.endpoint.env.show-values=" + showValues);
    actuator =
        "http://127.0.0.1:"
            + application.getEnvironment().getProperty("local.server.port")
            + "/actuator";
  }

  private static final Filter AUTHENTICATED =
      (request, response, chain) ->
          chain.doFilter(
              new HttpServletRequestWrapper((HttpServletRequest) request) {
                @Override
                public Principal getUserPrincipal() {
                  return () -> "operator";
                }
              },
              response);

  @AfterEach
  void stop() {
    if (application != null) {
      application.close();
    }
  }

  @ParameterizedTest(name = "show-values={0}")
  @ValueSource(strings = {"always", "when-authorized"})
  void configpropsShowsOtherValuesButNeverTheToken(String showValues) {
    start(showValues);
    JsonNode configprops = Http.get(actuator + "/configprops", null);

    JsonNode formation =
        configprops.findParents("prefix").stream()
            .filter(bean -> bean.path("prefix").asText().equals("formation"))
            .findFirst()
            .orElseThrow();
    assertThat(formation.path("properties").path("baseUrl").asText())
        .isEqualTo("https://api.example.com");
    assertThat(formation.path("properties").path("accessToken").asText()).isEqualTo("******");
    assertThat(configprops.toString()).doesNotContain(TOKEN);
  }

  @ParameterizedTest(name = "show-values={0}")
  @ValueSource(strings = {"always", "when-authorized"})
  void envShowsOtherValuesButNeverTheTokenUnderEitherName(String showValues) {
    start(showValues);
    JsonNode env = Http.get(actuator + "/env", null);
    JsonNode property = Http.get(actuator + "/env/formation.access-token", null);
    JsonNode variable = Http.get(actuator + "/env/FORMATION_ACCESS_TOKEN", null);

    assertThat(env.toString()).contains("https://api.example.com").doesNotContain(TOKEN);
    assertThat(property.path("property").path("value").asText()).isEqualTo("******");
    assertThat(variable.path("property").path("value").asText()).isEqualTo("******");
    assertThat(property.toString()).doesNotContain(TOKEN);
    assertThat(variable.toString()).doesNotContain(TOKEN);
  }
}
