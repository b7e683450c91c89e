package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.formation.sandbox.FormationSandbox;
import io.formation.spring.autoconfigure.FormationClientBuilderCustomizer;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The service refusing for a moment is the backend's to ride out, not the person's: a create and a
 * submission met by more {@code 503}s than the SDK retries are tried again by the backend, and the
 * person sees no problem. A create whose answer is lost may have made a set, so it is not sent
 * again behind the person's back. A set the service no longer knows is said in plain words, with
 * the ways on. No message the page shows carries a status code.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import({SandboxForTests.class, ServiceTroubleTest.Trouble.class})
class ServiceTroubleTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  /** A status code as a person would read it in a message: three digits on their own. */
  private static final String STATUS_CODE = ".*\\b[1-5]\\d\\d\\b.*";

  @LocalServerPort int port;
  @Autowired Trouble trouble;
  @Autowired FormationSandbox sandbox;

  @RegisterExtension final Browser page = Browser.open(Browser.DESKTOP, SandboxForTests.PATIENCE);

  @AfterEach
  void calmTheService() {
    trouble.creates.set(0);
    trouble.createKeys.clear();
    trouble.refuseCreates.set(0);
    trouble.loseCreateAnswers.set(0);
    trouble.refuseSubmissions.set(0);
    trouble.forget.set(false);
  }

  @Test
  void refusalsOfACreateAndASubmissionAreTriedAgainByTheBackendNotByThePerson() {
    int setsBefore = sandbox.documentSets().size();
    trouble.refuseCreates.set(3);
    trouble.refuseSubmissions.set(4);
    page.open("http://localhost:" + port + "/");
    page.waitFor(By.xpath("//button[text()='Start']"));
    page.recordMessages();

    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    Fill.company(page);
    page.submit("company");
    page.waitUntilDone("company");

    assertThat(trouble.refuseCreates).as("every refusal of the create was met").hasValue(0);
    assertThat(trouble.refuseSubmissions).hasValue(0);
    assertThat(sandbox.documentSets()).hasSize(setsBefore + 1);
    assertThat(page.messagesShown()).isEmpty();
  }

  @Test
  void aCreateWhoseAnswerIsLostIsNotSentAgainBehindThePersonsBack() {
    int setsBefore = sandbox.documentSets().size();
    trouble.loseCreateAnswers.set(1);
    page.open("http://localhost:" + port + "/");
    page.waitFor(By.xpath("//button[text()='Start']"));
    page.recordMessages();

    page.click(By.xpath("//button[text()='Start']"));
    page.waitFor(By.cssSelector(".problem"));

    assertThat(trouble.creates).as("creates sent").hasValue(1);
    assertThat(sandbox.documentSets()).hasSize(setsBefore + 1);
    assertThat(page.messagesShown()).isNotEmpty().noneMatch(m -> m.matches(STATUS_CODE));

    // The person starts again: the same start, sent with the same Idempotency-Key, so a service
    // that honours it answers with the set the lost answer made (the sandbox does not honour it).
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    assertThat(trouble.createKeys).hasSize(2).doesNotContainNull();
    assertThat(trouble.createKeys.get(1)).isEqualTo(trouble.createKeys.get(0));
    assertThat(page.present(By.cssSelector(".problem"))).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"desktop", "phone"})
  void aProblemIsSetApartFromTheCardBelowItAsTheCardsAreFromEachOther(String size)
      throws IOException {
    trouble.loseCreateAnswers.set(1);
    try (Browser browser =
        new Browser(
            size.equals("phone") ? Browser.PHONE : Browser.DESKTOP, SandboxForTests.PATIENCE)) {
      browser.open("http://localhost:" + port + "/");
      browser.click(By.xpath("//button[text()='Start']"));
      browser.waitFor(By.cssSelector(".problem + .card"));
      browser.screenshot(size + "-problem");

      Number gap =
          (Number)
              browser.script(
                  "const problem = document.querySelector('.problem');"
                      + "return problem.nextElementSibling.getBoundingClientRect().top"
                      + "    - problem.getBoundingClientRect().bottom;");
      Number cards =
          (Number)
              browser.script(
                  "return parseFloat(getComputedStyle(document.querySelector('.card'))"
                      + ".marginBottom);");
      assertThat(cards.doubleValue()).as("the space below a card").isPositive();
      assertThat(gap.doubleValue()).isCloseTo(cards.doubleValue(), within(1.0));
    }
  }

  @Test
  void aSetTheServiceNoLongerKnowsIsSaidInPlainWordsWithTheWaysOn() throws IOException {
    Fill.start(page, port);
    page.recordMessages();
    String id = page.formationId();
    Fill.company(page);

    trouble.forget.set(true);
    page.submit("company");

    page.waitFor(By.cssSelector(".lost"));
    page.screenshot("lost-at-the-service");
    assertThat(page.text(By.cssSelector(".lost h2")))
        .isEqualTo("The Formation service no longer knows this formation");
    assertThat(page.text(By.cssSelector(".lost"))).contains(id);
    assertThat(page.present(By.xpath("//button[text()='Start again with what you typed']")))
        .isTrue();
    assertThat(page.messagesShown()).isNotEmpty().noneMatch(m -> m.matches(STATUS_CODE));
    assertThat(page.accessibilityViolations()).isEmpty();
  }

  /** Answers the service's requests in its place, as a test sets it to. */
  @TestConfiguration(proxyBeanMethods = false)
  static class Trouble implements Interceptor {
    final AtomicInteger creates = new AtomicInteger();
    final List<String> createKeys = new CopyOnWriteArrayList<>();
    final AtomicInteger refuseCreates = new AtomicInteger();
    final AtomicInteger loseCreateAnswers = new AtomicInteger();
    final AtomicInteger refuseSubmissions = new AtomicInteger();
    final AtomicBoolean forget = new AtomicBoolean();

    @Bean
    FormationClientBuilderCustomizer trouble() {
      return builder -> builder.httpClient(new OkHttpClient.Builder().addInterceptor(this).build());
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
      String path = chain.request().url().encodedPath();
      String method = chain.request().method();
      boolean create = method.equals("POST") && path.equals("/v1/document_sets");
      boolean submission = path.startsWith("/v1/form_actions/") && !method.equals("GET");
      if (create) {
        creates.incrementAndGet();
        createKeys.add(chain.request().header("Idempotency-Key"));
      }
      if (create && refuseCreates.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        return answer(chain, 503);
      }
      if (create && loseCreateAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        // The service made the set, and its answer was lost on the way.
        chain.proceed(chain.request()).close();
        throw new IOException("the connection was reset");
      }
      if (submission && refuseSubmissions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        return answer(chain, 503);
      }
      if (forget.get() && path.startsWith("/v1/document_sets/")) {
        return answer(chain, 404);
      }
      return chain.proceed(chain.request());
    }

    private static Response answer(Chain chain, int status) {
      return new Response.Builder()
          .request(chain.request())
          .protocol(Protocol.HTTP_1_1)
          .code(status)
          .message(status == 404 ? "Not Found" : "Service Unavailable")
          .body(
              ResponseBody.create(
                  "{\"errors\":[{\"status\":\"" + status + "\",\"detail\":\"Not now\"}]}",
                  MediaType.get("application/vnd.api+json")))
          .build();
    }
  }
}
