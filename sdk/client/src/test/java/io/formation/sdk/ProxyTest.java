package io.formation.sdk;

import static io.formation.sdk.Fixtures.ok;
import static io.formation.sdk.TransportTest.SET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.formation.testkit.FakeTime;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.Credentials;
import okhttp3.OkHttpClient;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;

/**
 * A caller's proxy, with authentication, configured on the OkHttp client handed to {@code
 * httpClient(...)}. The MockWebServer plays the proxy: it answers the CONNECTs and then, through
 * the tunnel, serves HTTPS as the service, with a certificate for hosts that never resolve, so only
 * the proxy can have carried the calls.
 */
class ProxyTest {
  static final String BASE_URL = "https://api.formation.test/";
  static final String PROXY_USER = "proxy-user";
  static final String PROXY_PASSWORD = "proxy-password-5fd1";

  static final HeldCertificate ROOT = TlsTest.ROOT;
  static final HeldCertificate SERVICE =
      new HeldCertificate.Builder()
          .ecdsa256()
          .commonName("api.formation.test")
          .addSubjectAlternativeName("api.formation.test")
          .addSubjectAlternativeName("files.formation.test")
          .addSubjectAlternativeName("elsewhere.formation.test")
          .signedBy(ROOT)
          .build();

  @StartStop final MockWebServer proxy = httpsServer();
  @StartStop final MockWebServer plainProxy = new MockWebServer();
  final FakeTime time = new FakeTime();

  @Test
  void theProxysChallengeIsAnsweredWithItsCredentialsWithoutSpendingARetry() throws Exception {
    proxy.enqueue(challenge(true));
    proxy.enqueue(tunnel());
    proxy.enqueue(Fixtures.created(SET));
    try (FormationClient client = client(BASE_URL, proxiedHttps()).maxRetries(0).build()) {
      // A create: the tunnel is authenticated before the request exists, so even a POST, which
      // the SDK never lets OkHttp send twice, goes through.
      assertThat(client.documentSets().create(DocumentSets.DELAWARE_CORPORATION).id())
          .isEqualTo("ds1");
    }
    RecordedRequest asked = proxy.takeRequest();
    assertThat(asked.getMethod()).isEqualTo("CONNECT");
    assertThat(asked.getTarget()).isEqualTo("api.formation.test:443");
    assertThat(asked.getHeaders().get("Proxy-Authorization")).isNull();
    RecordedRequest answered = proxy.takeRequest();
    assertThat(answered.getMethod()).isEqualTo("CONNECT");
    assertThat(answered.getHeaders().get("Proxy-Authorization"))
        .isEqualTo(Credentials.basic(PROXY_USER, PROXY_PASSWORD));
    RecordedRequest call = proxy.takeRequest();
    assertThat(call.getMethod() + " " + call.getTarget()).isEqualTo("POST /v1/document_sets");
    assertThat(call.getHandshakeServerNames()).containsExactly("api.formation.test");
    assertThat(proxy.getRequestCount()).isEqualTo(3);
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  void throughTheProxyTheTokenGoesOnlyToTrustedOriginsAndNeverToTheProxy() throws Exception {
    proxy.enqueue(tunnel());
    proxy.enqueue(redirect("https://files.formation.test/v1/document_sets/ds1"));
    proxy.enqueue(tunnel());
    proxy.enqueue(redirect("https://elsewhere.formation.test/v1/document_sets/ds1"));
    proxy.enqueue(tunnel());
    proxy.enqueue(ok(SET));
    try (FormationClient client =
        client(BASE_URL, proxiedHttps()).trustOrigin("https://files.formation.test").build()) {
      client.documentSets().get("ds1");
    }
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      RecordedRequest request = proxy.takeRequest();
      assertThat(request.getHeaders().get("Proxy-Authorization")).isNull();
      seen.add(
          request.getMethod()
              + " "
              + (request.getMethod().equals("CONNECT")
                  ? request.getTarget()
                  : request.getHandshakeServerNames())
              + " "
              + request.getHeaders().get("Authorization"));
    }
    String bearer = "Bearer " + TestClients.TOKEN;
    assertThat(seen)
        .containsExactly(
            "CONNECT api.formation.test:443 null",
            "GET [api.formation.test] " + bearer,
            "CONNECT files.formation.test:443 null",
            "GET [files.formation.test] " + bearer,
            "CONNECT elsewhere.formation.test:443 null",
            "GET [elsewhere.formation.test] null");
  }

  @Test
  void aProxyThatRefusesTheCredentialsFailsTheCallWithoutShowingThem() throws Exception {
    proxy.enqueue(challenge(true));
    proxy.enqueue(challenge(true));
    try (FormationClient client = client(BASE_URL, proxiedHttps()).maxRetries(0).build()) {
      NetworkException e =
          catchThrowableOfType(NetworkException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.requestSent()).isFalse();
      String basic = Credentials.basic(PROXY_USER, PROXY_PASSWORD);
      for (Throwable t = e; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t))
            .doesNotContain(PROXY_PASSWORD)
            .doesNotContain(basic.substring("Basic ".length()))
            .doesNotContain(TestClients.TOKEN);
      }
    }
    assertThat(proxy.takeRequest().getMethod()).isEqualTo("CONNECT");
    assertThat(proxy.takeRequest().getHeaders().get("Proxy-Authorization")).isNotNull();
    assertThat(proxy.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aPlainHttpProxyGetsAbsoluteFormRequestsAndItsCredentials() throws Exception {
    String baseUrl = "http://api.formation.test/";
    OkHttpClient http =
        ReadmeSnippets.proxy(
            plainProxy.getHostName(), plainProxy.getPort(), PROXY_USER, PROXY_PASSWORD);
    assertThatThrownBy(() -> client(baseUrl, http).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("plain http");
    plainProxy.enqueue(challenge(false));
    plainProxy.enqueue(ok(SET));
    try (FormationClient client =
        client(baseUrl, http).allowInsecureHttp(true).maxRetries(0).build()) {
      assertThat(client.documentSets().get("ds1").id()).isEqualTo("ds1");
    }
    RecordedRequest asked = plainProxy.takeRequest();
    assertThat(asked.getTarget()).isEqualTo("http://api.formation.test/v1/document_sets/ds1");
    assertThat(asked.getHeaders().get("Proxy-Authorization")).isNull();
    RecordedRequest answered = plainProxy.takeRequest();
    assertThat(answered.getTarget()).isEqualTo("http://api.formation.test/v1/document_sets/ds1");
    assertThat(answered.getHeaders().get("Proxy-Authorization"))
        .isEqualTo(Credentials.basic(PROXY_USER, PROXY_PASSWORD));
    // Without a tunnel the proxy reads everything, the token included: hence https.
    assertThat(answered.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
  }

  @Test
  void aCreateThroughAPlainHttpProxyGetsThe407BackRatherThanBeingSentTwice() throws Exception {
    plainProxy.enqueue(challenge(false));
    try (FormationClient client =
        client(
                "http://api.formation.test/",
                ReadmeSnippets.proxy(
                    plainProxy.getHostName(), plainProxy.getPort(), PROXY_USER, PROXY_PASSWORD))
            .allowInsecureHttp(true)
            .build()) {
      ApiException e =
          catchThrowableOfType(
              ApiException.class,
              () -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION));
      assertThat(e.statusCode()).isEqualTo(407);
    }
    assertThat(plainProxy.getRequestCount()).isEqualTo(1);
    assertThat(time.sleeps()).isEmpty();
  }

  private FormationClient.Builder client(String baseUrl, OkHttpClient http) {
    return TestClients.builder(baseUrl, time).httpClient(http);
  }

  /** The README's proxy client, trusting the test root instead of the platform's. */
  private OkHttpClient proxiedHttps() {
    HandshakeCertificates trust =
        new HandshakeCertificates.Builder().addTrustedCertificate(ROOT.certificate()).build();
    return ReadmeSnippets.proxy(proxy.getHostName(), proxy.getPort(), PROXY_USER, PROXY_PASSWORD)
        .newBuilder()
        .sslSocketFactory(trust.sslSocketFactory(), trust.trustManager())
        .build();
  }

  private static MockWebServer httpsServer() {
    MockWebServer server = new MockWebServer();
    server.useHttps(
        new HandshakeCertificates.Builder()
            .heldCertificate(SERVICE, ROOT.certificate())
            .build()
            .sslSocketFactory());
    return server;
  }

  private static MockResponse challenge(boolean inTunnel) {
    MockResponse.Builder response =
        new MockResponse.Builder().code(407).addHeader("Proxy-Authenticate", "Basic realm=\"x\"");
    return (inTunnel ? response.inTunnel() : response).build();
  }

  private static MockResponse tunnel() {
    return new MockResponse.Builder().inTunnel().code(200).build();
  }

  private static MockResponse redirect(String location) {
    return new MockResponse.Builder().code(302).addHeader("Location", location).build();
  }
}
