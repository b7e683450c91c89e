package io.formation.sdk;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.Challenge;
import okhttp3.Credentials;
import okhttp3.OkHttpClient;

/**
 * The code of docs/proxies-and-tls.md, compiled and run by ProxyTest and TlsTest; DocsCodeTest
 * (examples/recipes) checks that every java block of that page appears in compiled code such as
 * this, so the two cannot drift apart.
 */
final class ReadmeSnippets {
  private ReadmeSnippets() {}

  static OkHttpClient proxy(
      String proxyHost, int proxyPort, String proxyUser, String proxyPassword) {
    OkHttpClient http =
        new OkHttpClient.Builder()
            .proxy(new Proxy(Proxy.Type.HTTP, new InetSocketAddress(proxyHost, proxyPort)))
            .proxyAuthenticator(
                (route, response) -> {
                  if (response.request().header("Proxy-Authorization") != null) {
                    return null; // these credentials were refused: fail instead of looping
                  }
                  for (Challenge challenge : response.challenges()) {
                    if (challenge.scheme().equalsIgnoreCase("Basic")) {
                      return response
                          .request()
                          .newBuilder()
                          .header(
                              "Proxy-Authorization", Credentials.basic(proxyUser, proxyPassword))
                          .build();
                    }
                  }
                  return null; // a scheme we cannot answer
                })
            .build();
    return http;
  }

  static FormationClient client(OkHttpClient http, String token) {
    FormationClient client =
        FormationClient.builder()
            .baseUrl("https://api.example.com")
            .accessToken(token)
            .httpClient(http)
            .build();
    return client;
  }

  static TrustManagerFactory trustStore(Path trustStorePath, char[] trustStorePassword)
      throws GeneralSecurityException, IOException {
    KeyStore trustStore = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(trustStorePath)) {
      trustStore.load(in, trustStorePassword);
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trustStore);
    return trust;
  }

  static OkHttpClient trusting(TrustManagerFactory trust) throws GeneralSecurityException {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trust.getTrustManagers(), null);
    OkHttpClient http =
        new OkHttpClient.Builder()
            .sslSocketFactory(
                tls.getSocketFactory(), (X509TrustManager) trust.getTrustManagers()[0])
            .build();
    return http;
  }

  static OkHttpClient presenting(
      TrustManagerFactory trust, Path identityPath, char[] identityPassword)
      throws GeneralSecurityException, IOException {
    KeyStore identity = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(identityPath)) {
      identity.load(in, identityPassword);
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(identity, identityPassword);

    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
    OkHttpClient http =
        new OkHttpClient.Builder()
            .sslSocketFactory(
                tls.getSocketFactory(), (X509TrustManager) trust.getTrustManagers()[0])
            .build();
    return http;
  }
}
