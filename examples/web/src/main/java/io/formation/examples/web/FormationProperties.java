package io.formation.examples.web;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where the Formation Service is and the token to call it with: {@code formation.base-url} and
 * {@code formation.access-token}, or the environment variables {@code FORMATION_BASE_URL} and
 * {@code FORMATION_ACCESS_TOKEN} through Spring's relaxed binding. No base URL means the embedded
 * sandbox.
 *
 * @param baseUrl the service's base URL, such as {@code https://api.example.com}; blank for the
 *     embedded sandbox
 * @param accessToken the OAuth access token; required with a base URL, and never shown
 */
@ConfigurationProperties("formation")
record FormationProperties(String baseUrl, String accessToken) {

  // A record would print the token; configuration ends up in logs and failure reports.
  @Override
  public String toString() {
    return "FormationProperties[baseUrl="
        + baseUrl
        + ", accessToken="
        + (accessToken == null || accessToken.isEmpty() ? "<none>" : "<redacted>")
        + "]";
  }
}
