package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.FormationClient;
import org.junit.jupiter.api.Test;

class OldKotlinStdlibTest {
  @Test
  void theStdlibLacksWhatOkHttp5LinksAgainst() {
    assertThat(getClass().getClassLoader().getResource("kotlin/enums/EnumEntriesKt.class"))
        .isNull();
  }

  @Test
  void buildingAClientFailsAtOnceNamingTheStdlibAndTheFix() {
    assertThatThrownBy(
            () ->
                FormationClient.builder()
                    .baseUrl("https://api.example.com")
                    .accessToken("token")
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Kotlin standard library 1.8.0 or newer")
        .hasMessageContaining("kotlin-stdlib 1.6.21 is on the class path")
        .hasMessageContaining("<kotlin.version>");
  }
}
