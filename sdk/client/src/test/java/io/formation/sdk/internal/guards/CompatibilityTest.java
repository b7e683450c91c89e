package io.formation.sdk.internal.guards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class CompatibilityTest {
  @Test
  void versionsCompareByMajorMinorAndPatchNumbers() {
    assertThat(Compatibility.olderThan("4.12.0", "5.0.0")).isTrue();
    assertThat(Compatibility.olderThan("1.7.22", "1.8.0")).isTrue();
    assertThat(Compatibility.olderThan("1.10.0", "1.8.0")).isFalse();
    assertThat(Compatibility.olderThan("2.11.4", "2.12.0")).isTrue();
    assertThat(Compatibility.olderThan("2.12.0", "2.12.0")).isFalse();
    assertThat(Compatibility.olderThan("2.12", "2.12.0")).isFalse();
    assertThat(Compatibility.olderThan("2.11.4.1", "2.12.0")).isTrue();
  }

  @Test
  void qualifiersAfterTheNumbersAreIgnored() {
    assertThat(Compatibility.olderThan("5.0.0-alpha.14", "5.0.0")).isFalse();
    assertThat(Compatibility.olderThan("4.10.0-RC1", "5.0.0")).isTrue();
    assertThat(Compatibility.olderThan("2.19.0-SNAPSHOT", "2.12.0")).isFalse();
  }

  @Test
  void aMissingOrUnreadableVersionIsNotHeldAgainstTheApplication() {
    assertThat(Compatibility.olderThan(null, "5.0.0")).isFalse();
    assertThat(Compatibility.olderThan("unknown", "5.0.0")).isFalse();
    assertThat(Compatibility.olderThan("99999999999.0", "5.0.0")).isFalse();
  }

  @Test
  void okHttp4IsRefusedWithTheExclusionAndOkHttp5AsTheFix() {
    assertThat(Compatibility.okhttpProblem("4.12.0"))
        .hasValueSatisfying(
            message ->
                assertThat(message)
                    .contains("OkHttp 5.0.0 or newer")
                    .contains("OkHttp 4.12.0 is on the class path")
                    .contains("<artifactId>okhttp</artifactId>")
                    .contains("<artifactId>okhttp-jvm</artifactId>")
                    .contains("<version>" + Compatibility.OKHTTP_TESTED + "</version>"));
    assertThat(Compatibility.okhttpProblem("3.14.9")).isPresent();
  }

  @Test
  void okHttp5IsAccepted() {
    assertThat(Compatibility.okhttpProblem("5.0.0")).isEmpty();
    assertThat(Compatibility.okhttpProblem("5.5.1")).isEmpty();
  }

  @Test
  void aKotlinStdlibWithoutEnumEntriesIsRefusedWithTheVersionToPin() {
    assertThat(Compatibility.kotlinProblem("1.6.21"))
        .hasValueSatisfying(
            message ->
                assertThat(message)
                    .contains("Kotlin standard library 1.8.0 or newer")
                    .contains("kotlin-stdlib 1.6.21 is on the class path")
                    .contains(
                        "<kotlin.version>" + Compatibility.KOTLIN_TESTED + "</kotlin.version>")
                    .contains("<artifactId>kotlin-stdlib</artifactId>"));
    assertThat(Compatibility.kotlinProblem("1.7.22")).isPresent();
  }

  @Test
  void theKotlinStdlibOfSpringBoot31AndLaterIsAccepted() {
    assertThat(Compatibility.kotlinProblem("1.8.0")).isEmpty();
    assertThat(Compatibility.kotlinProblem("1.8.22")).isEmpty();
    assertThat(Compatibility.kotlinProblem("1.9.25")).isEmpty();
    assertThat(Compatibility.kotlinProblem("2.3.21")).isEmpty();
  }

  @Test
  void anOldJacksonIsRefusedNamingTheModuleAndTheBom() {
    assertThat(Compatibility.jacksonProblem("jackson-databind", "2.11.4"))
        .hasValueSatisfying(
            message ->
                assertThat(message)
                    .contains("Jackson " + Compatibility.JACKSON_FLOOR + " or newer")
                    .contains("jackson-databind 2.11.4 is on the class path")
                    .contains("<artifactId>jackson-bom</artifactId>")
                    .contains("<scope>import</scope>"));
    assertThat(Compatibility.jacksonProblem("jackson-databind", Compatibility.JACKSON_FLOOR))
        .isEmpty();
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThat(Compatibility.problems("4.12.0", "1.6.21", "2.9.10", "2.9.10", "3.6.0", false))
        .hasSize(5)
        .anySatisfy(problem -> assertThat(problem).contains("jackson-core 2.9.10"))
        .anySatisfy(problem -> assertThat(problem).contains("jackson-databind 2.9.10"));
    assertThat(Compatibility.problems("5.5.1", "2.1.21", "2.19.0", "2.19.0", "3.18.1", true))
        .isEmpty();
  }

  @Test
  void theSdksOwnClassPathPasses() {
    assertThatCode(Compatibility::check).doesNotThrowAnyException();
  }

  @Test
  void theFixesOfferTheVersionsTheSdkIsBuiltAndTestedWith() {
    assertThat(Compatibility.staticField("okhttp3.OkHttp", "VERSION"))
        .isEqualTo(Compatibility.OKHTTP_TESTED);
    assertThat(Compatibility.staticField("kotlin.KotlinVersion", "CURRENT"))
        .isEqualTo(Compatibility.KOTLIN_TESTED);
    assertThat(
            Compatibility.staticField(
                "com.fasterxml.jackson.databind.cfg.PackageVersion", "VERSION"))
        .isEqualTo(Compatibility.JACKSON_TESTED);
  }

  @Test
  void anAbsentLibraryReadsAsNoVersion() {
    assertThat(Compatibility.staticField("com.example.NotThere", "VERSION")).isNull();
  }
}
