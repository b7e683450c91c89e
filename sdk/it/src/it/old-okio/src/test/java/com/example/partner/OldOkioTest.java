package com.example.partner;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.FormationClient;
import org.junit.jupiter.api.Test;

class OldOkioTest {
  @Test
  void buildingAClientFailsAtOnceNamingOkioAndTheFix() {
    assertThatThrownBy(
            () ->
                FormationClient.builder()
                    .baseUrl("https://api.example.com")
                    .accessToken("token")
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("needs Okio 3.18.1")
        .hasMessageContaining("but Okio 3.6.0 is on the class path")
        .hasMessageContaining("<artifactId>okio-jvm</artifactId>");
  }
}
