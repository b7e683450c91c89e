package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.formation.sdk.FormationClient;
import org.junit.jupiter.api.Test;

class OldOkioTest {
  @Test
  void buildingAClientFailsAtOnceNamingOkioTheVersionFoundAndTheFix() {
    FormationClient.Builder builder =
        FormationClient.builder().baseUrl("https://api.example.com").accessToken("token");

    IllegalStateException refused =
        catchThrowableOfType(IllegalStateException.class, builder::build);

    assertThat(refused.getMessage())
        .contains("needs Okio 3.18.1")
        .contains("but Okio 3.6.0 is on the class path")
        .contains("<artifactId>okio-jvm</artifactId>");
  }
}
