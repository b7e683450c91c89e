package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.SandboxOptions;
import io.formation.spring.autoconfigure.FormationClientBuilderCustomizer;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The last form's submission is taken by the service but its answer is lost; the SDK's retry meets
 * a set that has moved on ({@code 409}), and by the time the page follows, the service's review has
 * sent the set back to input_needed for another form. The page knows the service holds the last
 * form: it asks the person only for the form the review wants, never for one already taken.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import({SandboxForTests.class, AnswerLostTest.LosesTheLastAnswer.class})
class AnswerLostTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  @LocalServerPort int port;
  @Autowired LosesTheLastAnswer network;

  @RegisterExtension final Browser page = Browser.open(Browser.DESKTOP, SandboxForTests.PATIENCE);

  @Test
  void aFormTakenWhoseAnswerWasLostIsNotAskedForAgainWhenTheReviewAsksForAnother()
      throws IOException {
    Fill.start(page, port);
    Fill.everyFormButTheLast(page);
    Fill.registeredAgent(page);
    page.submit("registered_agent");

    page.waitFor(Browser.inForm("people", ".badge.attention"));
    page.screenshot("answer-lost-then-review");
    assertThat(network.registeredAgentAttempts).as("the SDK sent it again").hasValue(2);
    assertThat(page.formClasses("registered_agent")).contains("done");
    assertThat(page.formClasses("people")).contains("open");
    assertThat(
            page.script(
                "return sessionStorage.getItem(arguments[0])",
                "formation.draft." + page.formationId() + ".registered_agent"))
        .as("the draft of the form taken")
        .isNull();
  }

  /**
   * Lets the registered agent's first submission reach the service, moves the service's clock past
   * its processing lag and drops the answer; lets the SDK's retry meet the {@code 409}, then moves
   * the clock past the review before the page hears of it.
   */
  @TestConfiguration(proxyBeanMethods = false)
  static class LosesTheLastAnswer implements Interceptor {
    final AtomicInteger registeredAgentAttempts = new AtomicInteger();
    private final FakeTime clock;
    private final SandboxOptions options;

    LosesTheLastAnswer(FakeTime clock, SandboxOptions options) {
      this.clock = clock;
      this.options = options;
    }

    @Bean
    FormationClientBuilderCustomizer losesTheLastAnswer() {
      return builder -> builder.httpClient(new OkHttpClient.Builder().addInterceptor(this).build());
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
      if (!isRegisteredAgent(chain)) {
        return chain.proceed(chain.request());
      }
      int attempt = registeredAgentAttempts.incrementAndGet();
      Response response = chain.proceed(chain.request());
      if (attempt == 1) {
        response.close();
        SandboxForTests.leave(clock, options, "input_needed");
        throw new IOException("the answer was lost on the way");
      }
      if (attempt == 2) {
        clock.advance(options.stepDelay().multipliedBy(2));
      }
      return response;
    }

    private static boolean isRegisteredAgent(Chain chain) throws IOException {
      if (!chain.request().url().encodedPath().startsWith("/v1/form_actions/")
          || chain.request().body() == null) {
        return false;
      }
      Buffer body = new Buffer();
      chain.request().body().writeTo(body);
      return body.readUtf8().contains("Registered Agents");
    }
  }
}
