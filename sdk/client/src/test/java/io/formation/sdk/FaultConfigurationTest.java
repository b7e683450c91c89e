package io.formation.sdk;

import static io.formation.sdk.FaultClients.ID;
import static io.formation.sdk.FaultServer.Fault.json;
import static io.formation.sdk.Fixtures.documentSetBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.formation.sdk.FaultServer.Fault;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Configuration a caller gets wrong or pushes to the edge: credentials in the base URL, tokens and
 * user agents that would split a header, and durations that round to nothing or overflow.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FaultConfigurationTest extends FaultFixture {
  private static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://user:hunter2-pw@127.0.0.1:9/",
        "https://user:hunter2-pw@api.example.com",
        "http://:hunter2-pw@127.0.0.1:9"
      })
  void aBaseUrlWithCredentialsIsRefusedWithoutEchoingThePassword(String baseUrl) {
    Throwable thrown =
        catchThrowable(
            () -> FormationClient.builder().baseUrl(baseUrl).accessToken("t").build().close());
    assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
    assertNoMessageContains(thrown, "hunter2-pw");
  }

  static Stream<String> tokensAHeaderCannotCarry() {
    return Stream.of(
        "tok\r\nX-Injected: yes",
        "tok\nX-Injected: yes",
        "tok\rX",
        "tok\u0000x",
        "tok\u007fx",
        "tok\u00e9n");
  }

  @ParameterizedTest
  @MethodSource("tokensAHeaderCannotCarry")
  void aFixedTokenAHeaderCannotCarryIsRefusedAtBuildWithoutEchoingIt(String token) {
    Throwable thrown =
        catchThrowable(() -> FaultClients.realTime(server).accessToken(token).build().close());
    assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
    assertNoMessageContains(thrown, token);
    assertNoMessageContains(thrown, token.substring(3));
    assertThat(server.connectionCount()).isZero();
  }

  @ParameterizedTest
  @MethodSource("tokensAHeaderCannotCarry")
  void aProvidedTokenAHeaderCannotCarryFailsTheCallBeforeAnythingIsSent(String token) {
    client = FaultClients.fakeTime(server, time).tokenProvider(() -> token).build();
    server.otherwise(json(200, documentSetBody(ID, "complete")));
    Throwable thrown = catchThrowable(() -> client.documentSets().get(ID));
    assertThat(thrown).isInstanceOf(FormationException.class);
    assertNoMessageContains(thrown, token);
    assertNoMessageContains(thrown, token.substring(3));
    assertThat(server.requests()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"acme/1.0\r\nX-Injected: yes", "acme/1.0\nX-Injected: yes"})
  void aUserAgentThatWouldSplitTheHeaderIsRefusedWithoutEchoingIt(String product) {
    Throwable thrown =
        catchThrowable(() -> FaultClients.realTime(server).userAgent(product).build().close());
    assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
    assertNoMessageContains(thrown, "X-Injected");
  }

  /** The four timeouts of the builder, by name. */
  enum Timeouts {
    CONNECT(FormationClient.Builder::connectTimeout),
    READ(FormationClient.Builder::readTimeout),
    WRITE(FormationClient.Builder::writeTimeout),
    CALL(FormationClient.Builder::callTimeout);

    final BiFunction<FormationClient.Builder, Duration, FormationClient.Builder> setter;

    Timeouts(BiFunction<FormationClient.Builder, Duration, FormationClient.Builder> setter) {
      this.setter = setter;
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Timeouts.class,
      names = {"READ", "CALL"})
  void aOneNanosecondTimeoutIsStillATimeoutAndNeverNone(Timeouts timeout) {
    server.otherwise(Fault.hold());
    client =
        timeout
            .setter
            .apply(FaultClients.fakeTime(server, time), Duration.ofNanos(1))
            .maxRetries(0)
            .build();
    NetworkException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5),
            () ->
                catchThrowableOfType(NetworkException.class, () -> client.documentSets().get(ID)));
    assertThat(e).isNotNull();
  }

  @ParameterizedTest
  @EnumSource(Timeouts.class)
  void aOneNanosecondTimeoutIsAccepted(Timeouts timeout) {
    assertThatCode(
            () ->
                timeout
                    .setter
                    .apply(FaultClients.realTime(server), Duration.ofNanos(1))
                    .build()
                    .close())
        .doesNotThrowAnyException();
  }

  @ParameterizedTest
  @EnumSource(Timeouts.class)
  void aTimeoutOfForeverIsRefusedAtTheSetterOrAtBuild(Timeouts timeout) {
    assertThatThrownBy(
            () -> timeout.setter.apply(FaultClients.realTime(server), FOREVER).build().close())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void pollOptionsOfForeverEverywhereStillReturnASetThatIsComplete() {
    server.otherwise(json(200, documentSetBody(ID, "complete")));
    client = FaultClients.fakeTime(server, time).build();
    PollOptions options =
        PollOptions.builder()
            .timeout(FOREVER)
            .maxInterval(FOREVER)
            .initialInterval(FOREVER)
            .build();
    assertThat(client.documentSets().awaitCompletion(ID, options).state().isComplete()).isTrue();
  }

  @Test
  void pollingWithATimeoutAndMaxIntervalOfForeverStillCompletes() {
    // Doubling from 1 s, the interval would pass Long.MAX_VALUE nanoseconds (292 years) after about
    // 34 polls; it stops at about 100 years, and 33 polls of fake time (some 240 years) stay
    // within what a monotonic clock can read.
    for (int i = 0; i < 33; i++) {
      server.enqueue(json(200, documentSetBody(ID, "filing_in_progress")));
    }
    server.enqueue(json(200, documentSetBody(ID, "complete")));
    client = FaultClients.fakeTime(server, time).build();
    PollOptions options =
        PollOptions.builder()
            .timeout(FOREVER)
            .maxInterval(FOREVER)
            .initialInterval(Duration.ofSeconds(1))
            .multiplier(2)
            .jitter(0)
            .build();
    DocumentSet done = client.documentSets().awaitCompletion(ID, options);
    assertThat(done.state().isComplete()).isTrue();
    assertThat(server.requests()).hasSize(34);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aHugeInitialIntervalWithAShortTimeoutEndsAtTheTimeout(Mode mode) {
    server.otherwise(json(200, documentSetBody(ID, "filing_in_progress")));
    client = FaultClients.fakeTime(server, time).build();
    PollOptions options =
        PollOptions.builder()
            .maxInterval(FOREVER)
            .initialInterval(FOREVER)
            .timeout(Duration.ofMinutes(1))
            .jitter(0)
            .build();
    Throwable thrown = catchThrowable(() -> mode.await(client, ID, options));
    assertThat(thrown).isInstanceOf(PollTimeoutException.class);
    assertThat(((PollTimeoutException) thrown).timeout()).isEqualTo(Duration.ofMinutes(1));
    assertThat(time.sleeps().stream().reduce(Duration.ZERO, Duration::plus))
        .isEqualTo(Duration.ofMinutes(1));
  }

  private static void assertNoMessageContains(Throwable thrown, String secret) {
    for (Throwable t : FaultClients.causeChain(thrown)) {
      assertThat(String.valueOf(t.getMessage())).doesNotContain(secret);
    }
  }
}
