package io.formation.spring.autoconfigure;

import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationListener;
import io.formation.sdk.FormationTracer;
import io.formation.sdk.Forms;
import io.formation.sdk.Teams;
import io.formation.sdk.TokenProvider;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.List;
import okhttp3.OkHttpClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configures a shared {@link FormationClient} from the {@code formation.*} properties ({@link
 * FormationProperties}), closed when the application stops, and its {@link Teams}, {@link
 * DocumentSets} and {@link Forms}. Every {@link FormationListener} bean hears the client (the
 * Micrometer meters are one), a {@link FormationTracer} bean traces it (formation-opentelemetry's,
 * made from an {@code OpenTelemetry} bean, is one), every {@link FormationClientBuilderCustomizer}
 * bean adjusts it, and a {@link TokenProvider} bean supplies its tokens instead of {@code
 * formation.access-token}. A {@code FormationClient} bean of the application's own replaces all of
 * it.
 *
 * <p>Ordered after Micrometer's registries and the auto-configurations that make an {@code
 * OpenTelemetry} bean (Boot 3.5's, Boot 4's, the OpenTelemetry starter's), so the meters and the
 * tracer are in place when the client is built.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.opentelemetry.OpenTelemetryAutoConfiguration",
      "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration",
      "io.opentelemetry.instrumentation.spring.autoconfigure.OpenTelemetryAutoConfiguration"
    })
@EnableConfigurationProperties(FormationProperties.class)
@Import({
  FormationSandboxConfiguration.class,
  FormationMetricsConfiguration.class,
  FormationOpenTelemetryConfiguration.class
})
public class FormationAutoConfiguration {
  /** Only Spring creates it. */
  FormationAutoConfiguration() {}

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  FormationClient formationClient(
      FormationProperties properties,
      ObjectProvider<TokenProvider> tokenProvider,
      ObjectProvider<SandboxConnection> sandbox,
      ObjectProvider<ProxiedHttpClient> proxied,
      ObjectProvider<FormationListener> listeners,
      ObjectProvider<FormationTracer> tracer,
      ObjectProvider<FormationClientBuilderCustomizer> customizers) {
    FormationClient.Builder builder = FormationClient.builder();
    PropertiesToBuilder.applySettings(properties, builder);
    SandboxConnection local = sandbox.getIfAvailable();
    if (local != null) {
      builder.baseUrl(local.baseUrl()).accessToken(local.token());
    } else {
      PropertiesToBuilder.applyService(properties, tokenProvider.getIfAvailable(), builder);
    }
    ProxiedHttpClient http = proxied.getIfAvailable();
    if (http != null) {
      builder.httpClient(http.client());
    }
    // A tracer is a listener too, but the client hears it through tracer(): not twice.
    List<FormationListener> all =
        listeners.orderedStream().filter(each -> !(each instanceof FormationTracer)).toList();
    if (!all.isEmpty()) {
      builder.listener(new Listeners(all));
    }
    FormationTracer traced = tracer.getIfUnique();
    if (traced != null) {
      builder.tracer(traced);
    }
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    return PropertiesToBuilder.build(builder);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnSingleCandidate(FormationClient.class)
  Teams formationTeams(FormationClient client) {
    return client.teams();
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnSingleCandidate(FormationClient.class)
  DocumentSets formationDocumentSets(FormationClient client) {
    return client.documentSets();
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnSingleCandidate(FormationClient.class)
  Forms formationForms(FormationClient client) {
    return client.forms();
  }

  /** With Actuator: the token masked in its configprops and env endpoints. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.SanitizingFunction")
  static class ActuatorConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "formationAccessTokenSanitizer")
    org.springframework.boot.actuate.endpoint.SanitizingFunction formationAccessTokenSanitizer(
        FormationProperties properties) {
      return new AccessTokenSanitizer(properties);
    }
  }

  /** {@code formation.proxy.*}: an OkHttp client of the starter's own, going through the proxy. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty("formation.proxy.host")
  static class ProxyConfiguration {
    @Bean(destroyMethod = "close")
    ProxiedHttpClient formationProxiedHttpClient(FormationProperties properties) {
      FormationProperties.ProxySettings proxy = properties.getProxy();
      if (proxy.getPort() == null || proxy.getPort() < 1 || proxy.getPort() > 65535) {
        throw new InvalidFormationPropertyException(
            "formation.proxy.port", "A proxy needs a port from 1 to 65535, was " + proxy.getPort());
      }
      // Unresolved: the name is looked up when connecting, as for the service itself.
      InetSocketAddress address =
          InetSocketAddress.createUnresolved(proxy.getHost().strip(), proxy.getPort());
      return new ProxiedHttpClient(
          new OkHttpClient.Builder().proxy(new Proxy(proxy.getType(), address)).build());
    }
  }

  /**
   * The OkHttp client behind {@code formation.proxy.*}. The SDK leaves a client it was given open
   * when it closes, so this one is closed with the application.
   */
  record ProxiedHttpClient(OkHttpClient client) implements AutoCloseable {
    @Override
    public void close() {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
  }

  /** Where the development sandbox listens and the token it accepts. */
  record SandboxConnection(String baseUrl, String token) {
    @Override
    public String toString() {
      return "SandboxConnection[baseUrl=" + baseUrl + "]";
    }
  }
}
