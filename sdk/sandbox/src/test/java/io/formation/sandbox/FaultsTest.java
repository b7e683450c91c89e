package io.formation.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.formation.sandbox.SandboxHttp.Reply;
import io.formation.sandbox.SandboxRequest.Fault;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Rate limiting, unavailability and dropped connections, on purpose and reproducibly. */
final class FaultsTest {
  private static final String CREATE = "{\"template\":\"startup_delaware-corporation\"}";

  private final FakeTime clock = new FakeTime(Instant.parse("2025-03-04T05:06:07Z"));

  @Test
  void rateLimitedRequestsGet429WithRetryAfterAndAnErrorsDocument() {
    try (FormationSandbox sandbox = start(Faults.none().withRateLimited(1.0))) {
      Reply reply = new SandboxHttp(sandbox).post("/v1/document_sets", CREATE);

      assertThat(reply.status()).isEqualTo(429);
      assertThat(reply.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(reply.contentType()).isEqualTo("application/vnd.api+json");
      assertThat(reply.json().at("/errors/0/status").asText()).isEqualTo("429");
      assertThat(reply.json().at("/errors/0/code").asText()).isEqualTo("rate_limited");
      assertThat(sandbox.documentSets()).isEmpty();
      SandboxRequest recorded = sandbox.requests().get(0);
      assertThat(recorded.fault()).hasValue(Fault.RATE_LIMITED);
      assertThat(recorded.status()).hasValue(429);
      assertThat(recorded.processed()).isFalse();
    }
  }

  @Test
  void retryAfterIsConfigurableInWholeSecondsRoundedUp() {
    Faults faults = Faults.none().withRateLimited(1.0).withRetryAfter(Duration.ofMillis(2500));
    try (FormationSandbox sandbox = start(faults)) {
      assertThat(new SandboxHttp(sandbox).get("/v1/teams").headers().firstValue("Retry-After"))
          .hasValue("3");
    }
  }

  @Test
  void aClientThatComesBackBeforeRetryAfterIsRateLimitedAgain() {
    Faults faults =
        Faults.none().withRateLimited(0.3).withRetryAfter(Duration.ofSeconds(10)).withSeed(3);
    try (FormationSandbox sandbox = start(faults)) {
      SandboxHttp http = new SandboxHttp(sandbox);
      Reply first = http.get("/v1/teams");
      for (int i = 0; i < 20 && first.status() != 429; i++) {
        first = http.get("/v1/teams");
      }
      assertThat(first.status()).isEqualTo(429);

      List<Reply> early = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        early.add(http.get("/v1/teams"));
      }
      clock.advance(Duration.ofMillis(6500));
      Reply later = http.get("/v1/teams");
      clock.advance(Duration.ofMillis(3500));
      List<Integer> afterwards = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        afterwards.add(http.get("/v1/teams").status());
      }

      assertThat(early)
          .allSatisfy(
              reply -> {
                assertThat(reply.status()).isEqualTo(429);
                assertThat(reply.headers().firstValue("Retry-After")).hasValue("10");
              });
      assertThat(later.status()).isEqualTo(429);
      assertThat(later.headers().firstValue("Retry-After")).hasValue("4");
      assertThat(afterwards).contains(200);
    }
  }

  @Test
  void unavailableRequestsGet503AndAreNotProcessed() {
    try (FormationSandbox sandbox = start(Faults.none().withUnavailable(1.0))) {
      Reply reply = new SandboxHttp(sandbox).post("/v1/document_sets", CREATE);

      assertThat(reply.status()).isEqualTo(503);
      assertThat(reply.contentType()).isEqualTo("application/vnd.api+json");
      assertThat(reply.json().at("/errors/0/status").asText()).isEqualTo("503");
      assertThat(sandbox.documentSets()).isEmpty();
      assertThat(sandbox.requests())
          .extracting(r -> r.fault().orElseThrow(), SandboxRequest::processed)
          .containsExactly(tuple(Fault.UNAVAILABLE, false));
    }
  }

  @Test
  void droppedConnectionIsAFailureForAJavaHttpClient() {
    try (FormationSandbox sandbox = start(Faults.none().withDropped(1.0))) {
      SandboxHttp http = new SandboxHttp(sandbox);

      assertThatThrownBy(() -> http.post("/v1/document_sets", CREATE))
          .isInstanceOf(UncheckedIOException.class)
          .hasCauseInstanceOf(IOException.class);
      assertThat(sandbox.requests())
          .first()
          .satisfies(
              recorded -> {
                assertThat(recorded.fault()).hasValue(Fault.DROPPED);
                assertThat(recorded.status()).isEmpty();
              });
    }
  }

  @Test
  void droppedConnectionEndsWithoutASingleByteOfResponse() throws IOException {
    try (FormationSandbox sandbox = start(Faults.none().withDropped(1.0))) {
      URI base = URI.create(sandbox.baseUrl());
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), base.getPort())) {
        socket.setSoTimeout(30_000);
        OutputStream out = socket.getOutputStream();
        out.write(
            ("GET /v1/teams HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + sandbox.token()
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();

        assertThat(readOrReset(in)).isEqualTo(-1);
      }
    }
  }

  @Test
  void someDroppedCreatesAreProcessedBeforeTheDropAndTheRecordingSaysWhich() throws IOException {
    try (FormationSandbox sandbox = start(Faults.none().withDropped(1.0).withSeed(11))) {
      for (int i = 0; i < 12; i++) {
        rawPost(sandbox, "/v1/document_sets", CREATE);
      }

      List<SandboxRequest> creates = sandbox.requests();
      assertThat(creates).hasSize(12).allSatisfy(r -> assertThat(r.status()).isEmpty());
      long processed = creates.stream().filter(SandboxRequest::processed).count();
      assertThat(processed).isBetween(1L, 11L);
      assertThat(sandbox.documentSets()).hasSize((int) processed);
    }
  }

  @Test
  void aClientThatResendsADroppedCreateShowsUpInTheRecording() {
    try (FormationSandbox sandbox = start(Faults.none().withDropped(1.0).withSeed(5))) {
      SandboxHttp http = new SandboxHttp(sandbox);
      // A naive client: on a connection failure it sends the create again, up to three times.
      for (int attempt = 0; attempt < 3; attempt++) {
        try {
          if (http.post("/v1/document_sets", CREATE).status() == 201) {
            break;
          }
        } catch (UncheckedIOException e) {
          // try again
        }
      }

      List<SandboxRequest> creates =
          sandbox.requests().stream()
              .filter(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
              .toList();
      long created = creates.stream().filter(SandboxRequest::processed).count();
      assertThat(creates).hasSize(3);
      assertThat(sandbox.documentSets()).hasSize((int) created);
    }
  }

  @Test
  void theSameSeedFailsTheSameRequestsTheSameWay() {
    Faults faults =
        Faults.none().withRateLimited(0.2).withUnavailable(0.2).withDropped(0.2).withSeed(42);

    List<String> first = outcomes(faults);
    List<String> second = outcomes(faults);
    List<String> other = outcomes(faults.withSeed(43));

    assertThat(first).isEqualTo(second).isNotEqualTo(other);
    assertThat(first).contains("RATE_LIMITED", "UNAVAILABLE", "200");
    assertThat(first).anyMatch(outcome -> outcome.startsWith("DROPPED"));
  }

  @Test
  void faultsAreSpreadAboutAsTheFractionsSay() {
    Faults faults = Faults.evenly(0.3).withRetryAfter(Duration.ZERO).withSeed(7);
    try (FormationSandbox sandbox = start(faults)) {
      for (int i = 0; i < 300; i++) {
        rawGetQuietly(sandbox);
      }
      Map<String, Long> counts =
          sandbox.requests().stream()
              .collect(
                  Collectors.groupingBy(
                      r -> r.fault().map(Fault::name).orElse("NONE"), Collectors.counting()));

      assertThat(counts.get("NONE")).isBetween(180L, 240L);
      assertThat(counts.get("RATE_LIMITED")).isBetween(15L, 50L);
      assertThat(counts.get("UNAVAILABLE")).isBetween(15L, 50L);
      assertThat(counts.get("DROPPED")).isBetween(15L, 50L);
    }
  }

  @Test
  void theAppPageNeverFails() throws IOException {
    try (FormationSandbox sandbox = start(Faults.none().withRateLimited(1.0))) {
      try (FormationSandbox calm = start(Faults.none())) {
        String id = new SandboxHttp(calm).createDocumentSet();
        assertThat(new SandboxHttp(calm).get("/app/document_sets/" + id).status()).isEqualTo(200);
      }
      assertThat(new SandboxHttp(sandbox).get("/app/document_sets/ds_x").status()).isEqualTo(404);
      assertThat(sandbox.requests().get(0).fault()).isEmpty();
    }
  }

  private List<String> outcomes(Faults faults) {
    try (FormationSandbox sandbox = start(faults.withRetryAfter(Duration.ZERO))) {
      for (int i = 0; i < 40; i++) {
        rawGetQuietly(sandbox);
      }
      Function<SandboxRequest, String> outcome =
          r ->
              r.fault()
                  .map(f -> f == Fault.DROPPED ? f + (r.processed() ? "+" : "-") : f.name())
                  .orElseGet(() -> Integer.toString(r.status().orElseThrow()));
      return sandbox.requests().stream().map(outcome).toList();
    }
  }

  private FormationSandbox start(Faults faults) {
    return FormationSandbox.start(SandboxOptions.defaults().withClock(clock).withFaults(faults));
  }

  /** Sends one request on a fresh connection, which no client library retries behind our back. */
  private static void rawPost(FormationSandbox sandbox, String path, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    try (Socket socket =
        new Socket(InetAddress.getLoopbackAddress(), URI.create(sandbox.baseUrl()).getPort())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST "
                  + path
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer "
                  + sandbox.token()
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + bytes.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      InputStream in = socket.getInputStream();
      while (readOrReset(in) != -1) {
        // drain until the sandbox closes the connection
      }
    }
  }

  private static void rawGetQuietly(FormationSandbox sandbox) {
    try (Socket socket =
        new Socket(InetAddress.getLoopbackAddress(), URI.create(sandbox.baseUrl()).getPort())) {
      socket.setSoTimeout(30_000);
      socket
          .getOutputStream()
          .write(
              ("GET /v1/teams?page%5Bsize%5D=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      + "Connection: close\r\nAuthorization: Bearer "
                      + sandbox.token()
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      while (readOrReset(in) != -1) {
        // drain
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A closed connection reads as end of stream, or as a reset on some systems. */
  private static int readOrReset(InputStream in) throws IOException {
    try {
      return in.read();
    } catch (java.net.SocketException e) {
      return -1;
    }
  }
}
