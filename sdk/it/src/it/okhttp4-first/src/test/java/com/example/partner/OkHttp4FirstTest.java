package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.FormationClient;
import org.junit.jupiter.api.Test;

class OkHttp4FirstTest {
  @Test
  void okHttp4WinsTheClassPath() throws ReflectiveOperationException {
    // Read at run time: OkHttp 4's VERSION is a constant javac would have copied in.
    assertThat(Class.forName("okhttp3.OkHttp").getField("VERSION").get(null)).isEqualTo("4.12.0");
  }

  @Test
  void buildingAClientFailsAtOnceNamingOkHttp4AndTheFix() {
    assertThatThrownBy(
            () ->
                FormationClient.builder()
                    .baseUrl("https://api.example.com")
                    .accessToken("token")
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("needs OkHttp 5.0.0 or newer, but OkHttp 4.12.0 is on the class path")
        .hasMessageContaining("<artifactId>okhttp-jvm</artifactId>");
  }
}
