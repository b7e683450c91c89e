package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.AttemptEvent;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationListener;
import io.formation.sdk.Forms;
import io.formation.sdk.ServerException;
import io.formation.sdk.Teams;
import io.formation.sdk.TokenProvider;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class FormationAutoConfigurationTest {
  @StartStop final MockWebServer server = new MockWebServer();

  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(FormationAutoConfiguration.class));

  ApplicationContextRunner service() {
    return runner.withPropertyValues(
        "formation.base-url=" + server.url("/"), "formation.access-token=tok-from-properties");
  }

  @Test
  void theClientCallsTheConfiguredServiceWithTheConfiguredToken() throws Exception {
    server.enqueue(Fixtures.ok("teams.json"));
    service()
        .run(
            context -> {
              Teams teams = context.getBean(Teams.class);
              assertThat(teams.list().pages().iterator().next().items()).hasSize(2);
            });

    RecordedRequest request = server.takeRequest();
    assertThat(request.getTarget()).startsWith("/v1/teams");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer tok-from-properties");
  }

  @Test
  void theClientsServicesAreBeansOfTheOneClient() {
    service()
        .run(
            context -> {
              FormationClient client = context.getBean(FormationClient.class);
              assertThat(context.getBean(Teams.class)).isSameAs(client.teams());
              assertThat(context.getBean(DocumentSets.class)).isSameAs(client.documentSets());
              assertThat(context.getBean(Forms.class)).isSameAs(client.forms());
            });
  }

  @Test
  void aTokenProviderBeanWinsOverTheTokenProperty() throws Exception {
    server.enqueue(Fixtures.ok("teams.json"));
    service()
        .withBean(TokenProvider.class, () -> () -> "tok-from-provider")
        .run(context -> context.getBean(Teams.class).list().pages().iterator().next());

    assertThat(server.takeRequest().getHeaders().get("Authorization"))
        .isEqualTo("Bearer tok-from-provider");
  }

  @Test
  void theClientIsClosedWithTheApplication() {
    FormationClient[] kept = new FormationClient[1];
    service().run(context -> kept[0] = context.getBean(FormationClient.class));

    assertThatThrownBy(() -> kept[0].teams().list().pages().iterator().next())
        .isInstanceOf(IllegalStateException.class);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void customizersAdjustTheBuilderAfterTheProperties() throws Exception {
    server.enqueue(Fixtures.ok("teams.json"));
    service()
        .withPropertyValues("formation.user-agent=from-properties/1")
        .withBean(
            FormationClientBuilderCustomizer.class,
            () -> builder -> builder.userAgent("from-customizer/2"))
        .run(context -> context.getBean(Teams.class).list().pages().iterator().next());

    assertThat(server.takeRequest().getHeaders().get("User-Agent"))
        .startsWith("from-customizer/2 formation-java/");
  }

  @Test
  void propertiesReachTheClient() throws Exception {
    server.enqueue(new MockResponse.Builder().code(503).build());
    service()
        .withPropertyValues("formation.max-retries=0", "formation.user-agent=acme-onboarding/2.1")
        .run(
            context ->
                assertThatThrownBy(
                        () -> context.getBean(Teams.class).list().pages().iterator().next())
                    .isInstanceOf(ServerException.class));

    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(server.takeRequest().getHeaders().get("User-Agent"))
        .startsWith("acme-onboarding/2.1 formation-java/");
  }

  @Test
  void everyListenerBeanHearsTheClientEvenWhenOneThrows() {
    server.enqueue(Fixtures.ok("teams.json"));
    List<String> heard = new CopyOnWriteArrayList<>();
    service()
        .withBean(
            "throwing",
            FormationListener.class,
            () ->
                new FormationListener() {
                  @Override
                  public void attemptFinished(AttemptEvent attempt) {
                    throw new IllegalStateException("a partner's listener failed");
                  }
                })
        .withBean(
            "hearing",
            FormationListener.class,
            () ->
                new FormationListener() {
                  @Override
                  public void attemptFinished(AttemptEvent attempt) {
                    heard.add(attempt.method() + " " + attempt.statusCode());
                  }
                })
        .run(context -> context.getBean(Teams.class).list().pages().iterator().next());

    assertThat(heard).containsExactly("GET 200");
  }

  @Test
  void theApplicationsOwnClientReplacesTheAutoConfiguredOne() {
    runner
        .withUserConfiguration(OwnClient.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(FormationClient.class);
              assertThat(context.getBean(FormationClient.class).toString())
                  .contains("https://own.formation.test");
              assertThat(context.getBean(Teams.class))
                  .isSameAs(context.getBean(FormationClient.class).teams());
            });
  }

  @Test
  void withTwoClientsOfTheApplicationsOwnNoServiceIsGuessed() {
    runner
        .withUserConfiguration(OwnClient.class)
        .withBean(
            "secondClient",
            FormationClient.class,
            () -> client("second"),
            definition -> definition.setDestroyMethodName("close"))
        .run(
            context ->
                assertThat(context)
                    .hasNotFailed()
                    .doesNotHaveBean(Teams.class)
                    .doesNotHaveBean(DocumentSets.class));
  }

  @Test
  void aProxyCarriesEveryRequest() throws Exception {
    server.enqueue(Fixtures.ok("teams.json"));
    runner
        .withPropertyValues(
            // A host that never resolves: only the proxy can have carried the call.
            "formation.base-url=http://api.formation.test",
            "formation.allow-insecure-http=true",
            "formation.access-token=tok",
            "formation.proxy.host=" + server.getHostName(),
            "formation.proxy.port=" + server.getPort())
        .run(context -> context.getBean(Teams.class).list().pages().iterator().next());

    assertThat(server.takeRequest().getTarget()).startsWith("http://api.formation.test/v1/teams");
  }

  /** A client of the application's own, named after its host and token. */
  static FormationClient client(String name) {
    return FormationClient.builder()
        .baseUrl("https://" + name + ".formation.test")
        .accessToken(name)
        .build();
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnClient {
    @Bean(destroyMethod = "close")
    FormationClient ownClient() {
      return client("own");
    }
  }
}
