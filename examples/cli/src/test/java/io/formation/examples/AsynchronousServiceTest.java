package io.formation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.Faults;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The program against a sandbox that behaves as the asynchronous service does: it stays {@code
 * input_needed} for a while after the last submission, passes through a state the interface does
 * not list, may ask for input again after a review, and may fail requests on purpose. Each test
 * checks what the program printed and what the sandbox received.
 *
 * <p>The sandbox's states last {@link #STEP}, several times the program's longest wait between
 * polls here (four times {@link ProgramRun#FIRST_POLL}), so every state is seen. Nothing here
 * sleeps: the only waiting is the program's own.
 */
final class AsynchronousServiceTest {
  private static final Duration LAG = Duration.ofMillis(300);
  private static final Duration STEP = Duration.ofMillis(400);
  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  private static final List<String> PROGRESSION = SandboxOptions.DEFAULT_PROGRESSION;
  private static final String UNLISTED = "payment_processing";

  /** What the program prints with review on: the set goes back once, from awaiting_payment. */
  private static final List<String> WITH_REVIEW =
      Stream.concat(
              Stream.of(
                  "input_needed",
                  "signature_requests_needed",
                  "awaiting_payment",
                  "input_needed",
                  "awaiting_payment"),
              PROGRESSION.stream().skip(2))
          .toList();

  private FormationSandbox sandbox;

  @AfterEach
  void stop() {
    sandbox.close();
  }

  private static SandboxOptions asynchronous() {
    return SandboxOptions.defaults().withProcessingLag(LAG).withStepDelay(STEP);
  }

  @Test
  void quickstartWaitsThroughTheProcessingLagAndPrintsEveryStateTheUnlistedOneIncluded() {
    sandbox = FormationSandbox.start(asynchronous());

    ProgramRun run = ProgramRun.against(sandbox, "quickstart", "--autofill");

    assertThat(run.code()).as(run.toString()).isZero();
    String id = run.createdId();
    assertThat(run.statesOf(id))
        .containsExactlyElementsOf(concat("input_needed", PROGRESSION))
        .contains(UNLISTED);
    assertThat(run.lastLine()).isEqualTo("complete " + id);
    assertThat(run.out()).doesNotContain("needs input again");
    assertTheSandboxWasCalledAsTheServiceAsks(id);
  }

  @Test
  void quickstartFillsInAgainTheFormAReviewReopenedAndGoesOnWaiting() {
    sandbox = FormationSandbox.start(asynchronous().withReview(true));

    ProgramRun run = ProgramRun.against(sandbox, "quickstart", "--autofill");

    assertThat(run.code()).as(run.toString()).isZero();
    String id = run.createdId();
    assertThat(run.statesOf(id)).containsExactlyElementsOf(WITH_REVIEW);
    assertThat(run.outLines())
        .containsSubsequence(
            "# submitted people",
            id + "\tawaiting_payment",
            "# document set " + id + " needs input again",
            "# submitted people",
            "complete " + id)
        .filteredOn(line -> line.startsWith("# submitted "))
        .as("only the reopened form is submitted again")
        .hasSize(6);
    assertThat(run.lastLine()).isEqualTo("complete " + id);
    assertThat(sandbox.documentSet(id).orElseThrow().reviewed()).isTrue();
    assertTheSandboxWasCalledAsTheServiceAsks(id);
  }

  @Test
  void quickstartRidesThroughRateLimitsUnavailabilityAndDroppedConnections() {
    // 30% of requests fail. With this seed the first ones the program makes meet all three kinds
    // whatever the timing: a form's submit gets 503 then 429, the next one a dropped connection.
    Faults faults = Faults.evenly(0.3).withSeed(57).withRetryAfter(RETRY_AFTER);
    sandbox = FormationSandbox.start(asynchronous().withFaults(faults));

    ProgramRun run = ProgramRun.against(sandbox, "quickstart", "--autofill");

    assertThat(run.code()).as(run.toString()).isZero();
    String id = run.createdId();
    // A rate limit holds the program back a whole second, so it may miss a state or two.
    assertThat(concat("input_needed", PROGRESSION)).containsSubsequence(run.statesOf(id));
    assertThat(run.statesOf(id)).last().isEqualTo("complete");
    assertThat(run.lastLine()).isEqualTo("complete " + id);
    assertThat(sandbox.requests())
        .as("the run met every kind of fault")
        .extracting(request -> request.fault().orElse(null))
        .contains(
            SandboxRequest.Fault.RATE_LIMITED,
            SandboxRequest.Fault.UNAVAILABLE,
            SandboxRequest.Fault.DROPPED);
    assertTheSandboxWasCalledAsTheServiceAsks(id);
  }

  @Test
  void statusWaitFillsInWhatAReviewAsksForAndPrintsEveryState() {
    // A longer lag: the test's own submissions come first, then the program starts polling.
    sandbox =
        FormationSandbox.start(
            asynchronous().withProcessingLag(Duration.ofSeconds(1)).withReview(true));
    String id;
    try (FormationClient client =
        FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build()) {
      DocumentSet set = client.documentSets().create(SandboxTemplates.DELAWARE_CORPORATION);
      id = set.id();
      for (Form form : client.forms().list(id)) {
        client.forms().submit(form, example(form));
      }
    }

    ProgramRun run = ProgramRun.against(sandbox, "status", id, "--wait", "--autofill");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.statesOf(id)).containsExactlyElementsOf(WITH_REVIEW);
    assertThat(run.outLines())
        .containsSubsequence(
            "# document set " + id + " needs input again", "# submitted people", "complete " + id)
        .filteredOn(line -> line.startsWith("# submitted "))
        .hasSize(1);
    assertThat(run.lastLine()).isEqualTo("complete " + id);
    assertThat(sandbox.documentSet(id).orElseThrow().isComplete()).isTrue();
    assertTheSandboxWasCalledAsTheServiceAsks(id);
  }

  private void assertTheSandboxWasCalledAsTheServiceAsks(String id) {
    List<SandboxRequest> requests = sandbox.requests();
    assertExactlyOneCreate(requests);
    assertEveryActionCalledAsTheFormReturnedIt(requests, id);
    assertPollsSpacedAsTheOptionsSay(requests, id);
    assertRetryAfterHonoured(requests);
  }

  /** Only rate-limited attempts, which the sandbox did not act on, may come before the create. */
  private void assertExactlyOneCreate(List<SandboxRequest> requests) {
    List<SandboxRequest> creates =
        requests.stream()
            .filter(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
            .toList();
    assertThat(creates).filteredOn(SandboxRequest::processed).hasSize(1);
    assertThat(creates)
        .filteredOn(r -> !r.processed())
        .allMatch(r -> r.fault().equals(java.util.Optional.of(SandboxRequest.Fault.RATE_LIMITED)));
    assertThat(sandbox.documentSets()).hasSize(1);
  }

  /**
   * Every action request used the method the forms give (PUT) and a url the sandbox issued for a
   * form that was open: the sandbox signs its action urls and answers 404 to one built or edited,
   * 405 to another method and 409 to the url a review retired, so each request answered 200 (when
   * no fault was injected) was made exactly as a form returned it. Every form was accepted.
   */
  private void assertEveryActionCalledAsTheFormReturnedIt(
      List<SandboxRequest> requests, String id) {
    List<SandboxRequest> actions =
        requests.stream().filter(r -> r.path().startsWith("/v1/form_actions/")).toList();
    assertThat(actions)
        .isNotEmpty()
        .allMatch(r -> r.method().equals("PUT"))
        .filteredOn(r -> r.fault().isEmpty())
        .allMatch(r -> r.status().orElse(0) == 200, "answered 200");
    assertThat(sandbox.documentSet(id).orElseThrow().formsNeedingValues()).isEmpty();
  }

  /**
   * Two polls in a row, the first one answered: the second came no sooner than the shortest wait
   * the options allow, the first interval less its jitter, and never within the SDK's 100 ms floor
   * between two polls of a wait (the options ask for 25 ms less jitter). Only a lower bound: a busy
   * machine is slow, never early.
   */
  private void assertPollsSpacedAsTheOptionsSay(List<SandboxRequest> requests, String id) {
    String poll = "/v1/document_sets/" + id;
    double jitter = PollOptions.defaults().jitter();
    Duration fromOptions =
        Duration.ofNanos((long) (ProgramRun.FIRST_POLL.toNanos() * (1 - jitter)));
    Duration floor = Duration.ofMillis(100);
    Duration least = fromOptions.compareTo(floor) < 0 ? floor : fromOptions;
    List<Duration> gaps = new ArrayList<>();
    for (int i = 1; i < requests.size(); i++) {
      SandboxRequest previous = requests.get(i - 1);
      SandboxRequest next = requests.get(i);
      if (isPoll(previous, poll) && isPoll(next, poll) && previous.status().orElse(0) == 200) {
        gaps.add(Duration.between(previous.receivedAt(), next.receivedAt()));
      }
    }
    assertThat(gaps)
        .as(() -> "polls in " + requests)
        .isNotEmpty()
        .allMatch(gap -> gap.compareTo(least) >= 0);
  }

  private static boolean isPoll(SandboxRequest request, String path) {
    return request.method().equals("GET") && request.path().equals(path);
  }

  /** After a 429, the next request of the same call came no earlier than its Retry-After. */
  private void assertRetryAfterHonoured(List<SandboxRequest> requests) {
    // The sandbox's Retry-After is whole seconds rounded up: with 1 s configured, every 429 (also
    // those inside a rate-limited second, answered with the seconds that remain) says 1.
    for (int i = 0; i < requests.size(); i++) {
      SandboxRequest limited = requests.get(i);
      if (limited.status().orElse(0) != 429) {
        continue;
      }
      requests.stream()
          .skip(i + 1L)
          .filter(r -> r.method().equals(limited.method()) && r.target().equals(limited.target()))
          .findFirst()
          .ifPresent(
              next ->
                  assertThat(Duration.between(limited.receivedAt(), next.receivedAt()))
                      .as("after %s", limited)
                      .isGreaterThanOrEqualTo(RETRY_AFTER));
    }
  }

  private static com.fasterxml.jackson.databind.JsonNode example(Form form) {
    return SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, form.id())
        .orElseThrow()
        .example();
  }

  private static List<String> concat(String first, List<String> rest) {
    return Stream.concat(Stream.of(first), rest.stream()).toList();
  }
}
