package io.formation.sdk;

import static io.formation.sdk.Fixtures.ok;
import static io.formation.sdk.TransportTest.SET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import javax.net.ssl.SSLHandshakeException;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.OkHttpClient;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A private trust store and a client certificate (mutual TLS), configured on the OkHttp client
 * handed to {@code httpClient(...)} with the README's own code, reading PKCS#12 files the test
 * writes from certificates of a test root.
 */
class TlsTest {
  static final char[] PASSWORD = "changeit".toCharArray();

  static final HeldCertificate ROOT =
      new HeldCertificate.Builder()
          .certificateAuthority(0)
          .ecdsa256()
          .commonName("Formation test root")
          .build();
  static final HeldCertificate SERVICE =
      new HeldCertificate.Builder()
          .ecdsa256()
          .commonName("localhost")
          .addSubjectAlternativeName("localhost")
          .signedBy(ROOT)
          .build();
  static final HeldCertificate CLIENT_ROOT =
      new HeldCertificate.Builder()
          .certificateAuthority(0)
          .ecdsa256()
          .commonName("Partner client root")
          .build();
  static final HeldCertificate CLIENT =
      new HeldCertificate.Builder()
          .ecdsa256()
          .commonName("acme-onboarding")
          .signedBy(CLIENT_ROOT)
          .build();

  @StartStop final MockWebServer server = new MockWebServer();
  @TempDir Path dir;
  final FakeTime time = new FakeTime();

  Path trustStore;
  Path identity;

  @BeforeEach
  void serveHttpsAndWriteTheKeyStores() throws Exception {
    server.useHttps(
        new HandshakeCertificates.Builder()
            .heldCertificate(SERVICE, ROOT.certificate())
            .addTrustedCertificate(CLIENT_ROOT.certificate())
            .build()
            .sslSocketFactory());
    KeyStore trusted = emptyPkcs12();
    trusted.setCertificateEntry("formation-test-root", ROOT.certificate());
    trustStore = write(trusted, "truststore.p12");
    KeyStore own = emptyPkcs12();
    own.setKeyEntry(
        "acme-onboarding",
        CLIENT.keyPair().getPrivate(),
        PASSWORD,
        new Certificate[] {CLIENT.certificate(), CLIENT_ROOT.certificate()});
    identity = write(own, "identity.p12");
  }

  @Test
  void aServiceCertificateFromAPrivateRootIsAcceptedWhenTheClientTrustsThatRoot() throws Exception {
    server.enqueue(ok(SET));
    OkHttpClient http = ReadmeSnippets.trusting(ReadmeSnippets.trustStore(trustStore, PASSWORD));
    try (FormationClient client = client(http).build()) {
      assertThat(client.documentSets().get("ds1").id()).isEqualTo("ds1");
    }
    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getHandshake()).isNotNull();
    assertThat(sent.getHandshake().peerCertificates()).isEmpty();
    assertThat(sent.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
  }

  @Test
  void withoutThatRootTheHandshakeFailsAndNothingReachesTheService() throws Exception {
    server.enqueue(ok(SET));
    // The SDK's own client, which trusts the platform's CAs only.
    try (FormationClient client = client().maxRetries(0).build()) {
      NetworkException e =
          catchThrowableOfType(NetworkException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.getCause()).isInstanceOf(SSLHandshakeException.class);
      assertThat(e.requestSent()).isFalse();
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void theClientPresentsItsCertificateToAServiceThatRequiresOne() throws Exception {
    server.requireClientAuth();
    server.enqueue(ok(SET));
    OkHttpClient http =
        ReadmeSnippets.presenting(
            ReadmeSnippets.trustStore(trustStore, PASSWORD), identity, PASSWORD);
    try (FormationClient client = client(http).build()) {
      assertThat(client.documentSets().get("ds1").id()).isEqualTo("ds1");
    }
    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getHandshake().peerCertificates()).startsWith(CLIENT.certificate());
    assertThat(sent.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
  }

  @Test
  void withoutAClientCertificateAServiceThatRequiresOneRefusesTheConnection() throws Exception {
    server.requireClientAuth();
    server.enqueue(ok(SET));
    OkHttpClient http = ReadmeSnippets.trusting(ReadmeSnippets.trustStore(trustStore, PASSWORD));
    try (FormationClient client = client(http).maxRetries(0).build()) {
      // In TLS 1.3 the service refuses the certificate after the client's side of the handshake
      // is done: the client sees an alert, a broken pipe or a shut connection, possibly after it
      // wrote the request, so neither the cause nor requestSent() can be pinned down here.
      assertThatThrownBy(() -> client.documentSets().get("ds1"))
          .isInstanceOf(NetworkException.class)
          .hasCauseInstanceOf(IOException.class);
    }
    assertThat(server.getRequestCount()).isZero();
  }

  private FormationClient.Builder client(OkHttpClient http) {
    return client().httpClient(http);
  }

  private FormationClient.Builder client() {
    return TestClients.builder("https://localhost:" + server.getPort() + "/", time);
  }

  private static KeyStore emptyPkcs12() throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    return store;
  }

  private Path write(KeyStore store, String name) throws GeneralSecurityException, IOException {
    Path file = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, PASSWORD);
    }
    return file;
  }
}
