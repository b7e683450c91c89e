package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The whole workflow as a partner writes it, against the published artifacts: shared by the
 * plain-classpath and oldest-jackson projects, which differ only in their poms.
 */
class FormationFlowTest {
  /** The partner's own type for the company form: a record, as Jackson 2.12 and later bind. */
  record Company(String name, String suffix, String website) {}

  @Test
  void aPartnerFormsACompanyFromTeamsToCompletion() {
    SandboxOptions instant =
        SandboxOptions.defaults().withProcessingLag(Duration.ZERO).withStepDelay(Duration.ZERO);
    try (FormationSandbox sandbox = FormationSandbox.start(instant);
        FormationClient client =
            FormationClient.builder()
                .baseUrl(sandbox.baseUrl())
                .accessToken(sandbox.token())
                .build()) {
      assertThat(client.teams().list().pageSize(10).stream().limit(25)).hasSize(25);

      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      for (Form form : client.forms().list(set.id())) {
        if (form.id().equals("company")) {
          client.forms().submit(form, new Company("Acme Robotics", "Inc.", "https://acme.example"));
        } else {
          JsonNode example =
              SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, form.id())
                  .orElseThrow()
                  .example();
          client.forms().submit(form, example);
        }
      }
      Form company =
          client.forms().list(set.id()).stream()
              .filter(form -> form.id().equals("company"))
              .findFirst()
              .orElseThrow();
      assertThat(client.forms().valuesAs(company, Company.class))
          .isEqualTo(new Company("Acme Robotics", "Inc.", "https://acme.example"));

      DocumentSet done = client.documentSets().awaitCompletion(set.id());
      assertThat(done.state().isComplete()).isTrue();
    }
  }

  @Test
  void theSdkJarCarriesItsVersionAndLicense() throws IOException, URISyntaxException {
    try (JarFile file = new JarFile(jarOf(FormationClient.class).toFile())) {
      Attributes manifest = file.getManifest().getMainAttributes();
      assertThat(manifest.getValue("Implementation-Title")).isEqualTo("Formation Java SDK");
      assertThat(manifest.getValue("Implementation-Version"))
          .isEqualTo(System.getProperty("formation.version"));
      assertThat(manifest.getValue("Implementation-Vendor")).isNotBlank();
      assertThat(file.getEntry("META-INF/LICENSE")).isNotNull();
    }
  }

  /** In oldest-jackson: the flow above really ran on the Jackson its pom pins. */
  @Test
  @EnabledIfSystemProperty(named = "jackson.expected", matches = ".+")
  void theFlowRanOnThePinnedJackson() {
    assertThat(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString())
        .isEqualTo(System.getProperty("jackson.expected"));
    assertThat(com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString())
        .isEqualTo(System.getProperty("jackson.expected"));
  }

  /** The poms beside the jars in the local repository are what Maven resolved: no parent. */
  @Test
  void thePublishedPomsStandAlone() throws IOException, URISyntaxException {
    for (Class<?> type : List.of(FormationClient.class, FormationSandbox.class)) {
      Path jar = jarOf(type);
      String pom =
          Files.readString(
              jar.resolveSibling(jar.getFileName().toString().replace(".jar", ".pom")));
      assertThat(pom)
          .doesNotContain("<parent>")
          .doesNotContain("${")
          .contains("<url>https://github.com/formation-sdk/formation-java</url>")
          .contains("<licenses>", "<developers>", "<scm", "<issueManagement>");
    }
  }

  private static Path jarOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
