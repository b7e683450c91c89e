package io.formation.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.internal.transport.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The published BOM names real versions, the SDK's own, and no property a partner can't read. */
class BomVersionsTest {
  private static final Pattern ENTRY =
      Pattern.compile("<artifactId>(formation-[a-z-]+)</artifactId>\\s*<version>([^<]*)</version>");

  @Test
  void theBomPinsEveryFormationArtifactToTheSdksOwnVersionWrittenOut() throws Exception {
    String bom = Files.readString(Path.of("..", "bom", "pom.xml"));
    String managed = bom.substring(bom.indexOf("<dependencyManagement>"));
    assertThat(managed).doesNotContain("${");
    Matcher entry = ENTRY.matcher(managed);
    int entries = 0;
    while (entry.find()) {
      entries++;
      assertThat(entry.group(2)).as(entry.group(1)).isEqualTo(Version.SDK).doesNotContain("${");
    }
    // The SDK, the sandbox, tracking, OpenTelemetry, the Spring Boot starter and its
    // auto-configuration.
    assertThat(entries).isEqualTo(6);
  }
}
