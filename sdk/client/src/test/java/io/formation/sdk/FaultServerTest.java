package io.formation.sdk;

import static io.formation.sdk.FaultServer.Fault.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.FaultServer.Fault;
import io.formation.sdk.FaultServer.Recorded;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fault server itself, driven by a raw socket: it must misbehave exactly as scripted. */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FaultServerTest {
  private static final Duration BOUND = Duration.ofSeconds(5);
  private static final String GET = "GET /v1/x HTTP/1.1\r\nHost: a\r\n\r\n";

  FaultServer server;

  @BeforeEach
  void start() throws Exception {
    server = new FaultServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
    socket.setSoTimeout((int) BOUND.toMillis());
    return socket;
  }

  private static void send(Socket socket, String request) throws IOException {
    socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
    socket.getOutputStream().flush();
  }

  /** Everything until the server closes; a reset counts as the end too. */
  private static String readToEnd(Socket socket) throws IOException {
    StringBuilder text = new StringBuilder();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        text.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
      }
    } catch (SocketException reset) {
      // The end, abruptly.
    }
    return text.toString();
  }

  @Test
  void recordsEachRequestItReadInFullAndAnswersAsScripted() throws Exception {
    server.enqueue(json(201, "{\"id\":1}").then(FaultServer.After.CLOSE));
    try (Socket socket = connect()) {
      send(
          socket,
          "POST /v1/document_sets?a=b HTTP/1.1\r\nHost: a\r\nX-Marker: m1\r\n"
              + "Content-Length: 5\r\n\r\nhello");
      String answer = readToEnd(socket);
      assertThat(answer).startsWith("HTTP/1.1 201 ").endsWith("\r\n\r\n{\"id\":1}");
    }
    Recorded request = server.requests().get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1/document_sets");
    assertThat(request.headers().get("x-marker")).isEqualTo("m1");
    assertThat(request.bodyUtf8()).isEqualTo("hello");
    assertThat(server.connectionCount()).isEqualTo(1);
  }

  @Test
  void readsChunkedRequestBodies() throws Exception {
    server.enqueue(json(200, "{}").then(FaultServer.After.CLOSE));
    try (Socket socket = connect()) {
      send(
          socket,
          "PUT /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
      readToEnd(socket);
    }
    assertThat(server.requests().get(0).bodyUtf8()).isEqualTo("abcde");
  }

  @Test
  void keepsAConnectionAliveThenClosesItIdleWhenAskedTo() throws Exception {
    server.enqueue(json(200, "{}"));
    server.enqueue(json(200, "{}").thenCloseIdle());
    try (Socket socket = connect()) {
      send(socket, GET + GET);
      String answers = readToEnd(socket);
      assertThat(answers.split("HTTP/1.1 200 ", -1)).hasSize(3);
    }
    assertThat(server.awaitIdleCloses(1, BOUND)).isTrue();
    assertThat(server.requests()).hasSize(2);
    assertThat(server.connectionCount()).isEqualTo(1);
  }

  @Test
  void aDropOnAcceptReadsNothing() throws Exception {
    server.enqueue(Fault.dropOnAccept(true));
    server.otherwise(json(200, "{}"));
    try (Socket socket = connect()) {
      try {
        send(socket, GET);
      } catch (IOException alreadyReset) {
        // The reset may beat the write.
      }
      assertThat(readToEnd(socket)).isEmpty();
    }
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void aHangUpRecordsTheRequestAndAnswersNothing() throws Exception {
    server.enqueue(Fault.hangUpAfterRequest(false));
    try (Socket socket = connect()) {
      send(socket, GET);
      assertThat(readToEnd(socket)).isEmpty();
    }
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void aHoldNoticesTheClientClosingTheConnection() throws Exception {
    server.enqueue(Fault.hold());
    try (Socket socket = connect()) {
      send(socket, GET);
      assertThat(server.awaitRequests(1, BOUND)).isTrue();
    }
    assertThat(server.awaitPeerCloses(1, BOUND)).isTrue();
  }

  @Test
  void closeEndsTheConnectionsItHolds() throws Exception {
    server.enqueue(Fault.hold());
    try (Socket socket = connect()) {
      send(socket, GET);
      assertThat(server.awaitRequests(1, BOUND)).isTrue();
      server.close();
      assertThat(readToEnd(socket)).isEmpty();
    }
  }

  @Test
  void aFloodDeclaresItsWholeLengthOrGoesChunked() throws Exception {
    server.enqueue(Fault.flood(200, "{}", false));
    server.enqueue(Fault.flood(200, "{}", true));
    for (String expected :
        new String[] {
          "Content-Length: " + (2 + FaultServer.FLOOD_CAP), "Transfer-Encoding: chunked"
        }) {
      try (Socket socket = connect()) {
        send(socket, GET);
        byte[] head = socket.getInputStream().readNBytes(200);
        assertThat(new String(head, StandardCharsets.ISO_8859_1)).contains(expected);
      }
    }
  }

  @Test
  void aGzipBombIsSmallOnTheWireAndHugeInflated() throws Exception {
    Fault.Answer bomb = Fault.gzipBomb(200, "{}", 16 << 20);
    assertThat(bomb.body().length).isLessThan(64 << 10);
    assertThat(bomb.headers()).contains("Content-Encoding: gzip");
    long inflated;
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bomb.body()))) {
      inflated = in.transferTo(OutputStream.nullOutputStream());
    }
    assertThat(inflated).isEqualTo(2 + (16 << 20));
  }

  @Test
  void aTrickleSendsTheHeadAtOnceAndTheBodyByteByByte() throws Exception {
    server.enqueue(Fault.trickle(200, "{}", Duration.ofMillis(10)));
    try (Socket socket = connect()) {
      send(socket, GET);
      assertThat(readToEnd(socket)).startsWith("HTTP/1.1 200 ").endsWith("\r\n\r\n{}");
    }
  }
}
