package io.formation.sdk;

import static io.formation.sdk.FaultClients.ID;
import static io.formation.sdk.FaultServer.Fault.json;
import static io.formation.sdk.Fixtures.documentSetBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.formation.sdk.FaultServer.After;
import io.formation.sdk.FaultServer.Fault;
import io.formation.sdk.FaultServer.Recorded;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Connections that die, stall or trickle, and what the client may resend: a create goes out again
 * only where the service cannot have received it, and {@code requestSent()} says which is which.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FaultConnectionsTest extends FaultFixture {
  private static final String SET = documentSetBody(ID, "filing_in_progress");
  private static final String CREATED = documentSetBody("ds_new", "input_needed");

  private long posts() {
    return server.requests().stream().filter(r -> r.method().equals("POST")).count();
  }

  @ParameterizedTest
  @EnumSource(
      value = After.class,
      names = {"CLOSE_IDLE_SOON", "RESET_IDLE_SOON"})
  void aCreateAfterTheServerClosedThePooledConnectionGoesOutOnceOnAFreshOne(After stale)
      throws Exception {
    server.enqueue(json(200, SET).then(stale));
    server.enqueue(json(201, CREATED));
    client = FaultClients.fakeTime(server, time).build();
    assertThat(client.documentSets().get(ID).id()).isEqualTo(ID);
    assertThat(server.awaitIdleCloses(1, Duration.ofSeconds(5))).isTrue();

    assertThat(client.documentSets().create(DocumentSets.DELAWARE_CORPORATION).id())
        .isEqualTo("ds_new");
    assertThat(posts()).isEqualTo(1);
    assertThat(server.connectionCount()).isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aCreateWhoseConnectionDiesAfterTheServerReadItIsNotResentAndCountsAsSent(boolean reset) {
    server.enqueue(Fault.hangUpAfterRequest(reset));
    server.otherwise(json(201, CREATED));
    client = FaultClients.fakeTime(server, time).build();
    NetworkException e =
        catchThrowableOfType(
            NetworkException.class,
            () -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION));
    assertThat(e).isNotNull();
    assertThat(posts()).isEqualTo(1);
    assertThat(e.requestSent()).isTrue();
  }

  @Test
  void aRefusedConnectionCountsAsNotSent() {
    String url = server.url();
    server.close();
    client =
        TestClients.fakeTime(
                FormationClient.builder().baseUrl(url).accessToken(FaultClients.TOKEN), time)
            .build();
    NetworkException e =
        catchThrowableOfType(
            NetworkException.class,
            () -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION));
    assertThat(e).isNotNull();
    assertThat(e.requestSent()).isFalse();
  }

  @Test
  void okHttpDoesNotReplayAGetAnswered503WithRetryAfterZeroBehindThePolicy() {
    server.otherwise(json(503, "").withHeader("Retry-After", "0"));
    client = FaultClients.fakeTime(server, time).maxRetries(0).build();
    assertThat(catchThrowableOfType(ServerException.class, () -> client.documentSets().get(ID)))
        .isNotNull();
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void okHttpDoesNotReplayACreateAnswered503WithRetryAfterZero() {
    server.otherwise(json(503, "").withHeader("Retry-After", "0"));
    client = FaultClients.fakeTime(server, time).build();
    assertThat(
            catchThrowableOfType(
                ServerException.class,
                () -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION)))
        .isNotNull();
    assertThat(server.requests()).extracting(Recorded::method).containsExactly("POST");
  }

  @Test
  void aTricklingBodyEndsByTheCallTimeout() {
    server.enqueue(Fault.trickle(200, SET, Duration.ofMillis(200)));
    NetworkException e = failureOfAGet(Duration.ofSeconds(1), Duration.ofSeconds(2));
    // OkHttp's call timeout is a plain InterruptedIOException; a read timeout a
    // SocketTimeoutException, which could not fire with a byte every 200 ms.
    assertThat(FaultClients.causeChain(e))
        .anyMatch(t -> t instanceof InterruptedIOException)
        .noneMatch(t -> t instanceof SocketTimeoutException);
  }

  @Test
  void aServerThatNeverAnswersEndsByTheReadTimeout() {
    server.otherwise(Fault.hold());
    NetworkException e = failureOfAGet(Duration.ofSeconds(1), Duration.ofSeconds(20));
    assertThat(FaultClients.causeChain(e)).anyMatch(t -> t instanceof SocketTimeoutException);
  }

  /** A get without retries under these timeouts, and how it failed: within 10 s, for real. */
  private NetworkException failureOfAGet(Duration readTimeout, Duration callTimeout) {
    client =
        FaultClients.fakeTime(server, time)
            .readTimeout(readTimeout)
            .callTimeout(callTimeout)
            .maxRetries(0)
            .build();
    NetworkException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                catchThrowableOfType(NetworkException.class, () -> client.documentSets().get(ID)));
    assertThat(e).isNotNull();
    return e;
  }
}
