package io.formation.sdk;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.formation.sdk.internal.ApiRequest;
import io.formation.sdk.internal.AsyncOperation;
import io.formation.sdk.internal.JsonResponse;
import io.formation.sdk.internal.Origins;
import io.formation.sdk.internal.RetryPolicy;
import io.formation.sdk.internal.Ticker;
import io.formation.sdk.internal.Transport;
import io.formation.sdk.internal.Wire;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;

/**
 * Document sets: create one from a template, read its state, list its forms, and wait until it is
 * complete. Reached through {@link FormationClient#documentSets()}.
 *
 * <pre>{@code
 * DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
 * for (Form form : client.documentSets().forms(set.id())) {
 *   client.forms().submit(form, valuesFor(form));
 * }
 * DocumentSet done = client.documentSets().awaitCompletion(set.id());
 * }</pre>
 *
 * <p>{@code create} is never re-sent blindly: it is retried only on 429 and on connection failures
 * that happened before anything was written, so a retry cannot create a second document set.
 */
public final class DocumentSets {
  /** The template for a Delaware C-Corporation: {@code startup_delaware-corporation}. */
  public static final String DELAWARE_CORPORATION = "startup_delaware-corporation";

  private final Transport transport;
  private final Origins origins;
  private final Forms forms;
  private final Ticker ticker;
  private final DoubleSupplier random;
  private final RetryPolicy retryPolicy;
  private final RequestOptions options;

  DocumentSets(
      Transport transport,
      Origins origins,
      Forms forms,
      Ticker ticker,
      DoubleSupplier random,
      RetryPolicy retryPolicy,
      RequestOptions options) {
    this.transport = transport;
    this.origins = origins;
    this.forms = forms;
    this.ticker = ticker;
    this.random = random;
    this.retryPolicy = retryPolicy;
    this.options = options;
  }

  /**
   * These document sets with settings for their calls only: every call through the returned view,
   * blocking or async, polls of a wait included, uses the options.
   *
   * <pre>{@code
   * client.documentSets()
   *     .withOptions(RequestOptions.builder().timeout(Duration.ofSeconds(5)).build())
   *     .create(DocumentSets.DELAWARE_CORPORATION);
   * }</pre>
   *
   * @param options the settings
   * @return a view of these document sets that uses them
   */
  public DocumentSets withOptions(RequestOptions options) {
    Objects.requireNonNull(options, "options");
    return new DocumentSets(
        transport, origins, forms.withOptions(options), ticker, random, retryPolicy, options);
  }

  /**
   * A view of these document sets whose calls return, with each result, the response it came in:
   * status, headers and request id.
   *
   * <pre>{@code
   * ApiResponse<DocumentSet> got = client.documentSets().withResponse().get(id);
   * }</pre>
   *
   * @return the view
   */
  public WithResponse withResponse() {
    return new WithResponse();
  }

  /**
   * {@link DocumentSets} whose calls return an {@link ApiResponse}; see {@link #withResponse()}.
   */
  public final class WithResponse {
    private WithResponse() {}

    /**
     * As {@link DocumentSets#create(String)}, with the response.
     *
     * @param template the template, such as {@link #DELAWARE_CORPORATION}
     * @return the new document set and the response it came in
     */
    public ApiResponse<DocumentSet> create(String template) {
      return create(CreateDocumentSetParams.of(template));
    }

    /**
     * The async twin of {@link #create(String)}.
     *
     * @param template the template, such as {@link #DELAWARE_CORPORATION}
     * @return the new document set and the response it came in, when it arrives
     */
    public CompletableFuture<ApiResponse<DocumentSet>> createAsync(String template) {
      return createAsync(CreateDocumentSetParams.of(template));
    }

    /**
     * As {@link DocumentSets#create(CreateDocumentSetParams)}, with the response.
     *
     * @param params the body of the create
     * @return the new document set and the response it came in
     */
    public ApiResponse<DocumentSet> create(CreateDocumentSetParams params) {
      return transport.send(createRequest(params), r -> ApiResponse.of(r, read(r)));
    }

    /**
     * The async twin of {@link #create(CreateDocumentSetParams)}.
     *
     * @param params the body of the create
     * @return the new document set and the response it came in, when it arrives
     */
    public CompletableFuture<ApiResponse<DocumentSet>> createAsync(CreateDocumentSetParams params) {
      return transport.sendAsync(createRequest(params), r -> ApiResponse.of(r, read(r)));
    }

    /**
     * As {@link DocumentSets#get}, with the response.
     *
     * @param id the document set's id
     * @return the document set and the response it came in
     */
    public ApiResponse<DocumentSet> get(String id) {
      return transport.send(getRequest(id), r -> ApiResponse.of(r, read(r)));
    }

    /**
     * The async twin of {@link #get}.
     *
     * @param id the document set's id
     * @return the document set and the response it came in, when it arrives
     */
    public CompletableFuture<ApiResponse<DocumentSet>> getAsync(String id) {
      return transport.sendAsync(getRequest(id), r -> ApiResponse.of(r, read(r)));
    }
  }

  /**
   * Creates a document set from a template ({@code POST /v1/document_sets}).
   *
   * @param template the template, such as {@link #DELAWARE_CORPORATION}
   * @return the new document set, with its initial state
   */
  public DocumentSet create(String template) {
    return create(CreateDocumentSetParams.of(template));
  }

  /**
   * The async twin of {@link #create(String)}.
   *
   * @param template the template, such as {@link #DELAWARE_CORPORATION}
   * @return the new document set, once created
   */
  public CompletableFuture<DocumentSet> createAsync(String template) {
    return createAsync(CreateDocumentSetParams.of(template));
  }

  /**
   * Creates a document set with further body fields.
   *
   * @param params the template and the further body fields
   * @return the new document set, with its initial state
   */
  public DocumentSet create(CreateDocumentSetParams params) {
    return transport.send(createRequest(params), DocumentSets::read);
  }

  /**
   * The async twin of {@link #create(CreateDocumentSetParams)}.
   *
   * @param params the template and the further body fields
   * @return the new document set, once created
   */
  public CompletableFuture<DocumentSet> createAsync(CreateDocumentSetParams params) {
    return transport.sendAsync(createRequest(params), DocumentSets::read);
  }

  /**
   * The document set with its current state ({@code GET /v1/document_sets/{id}}).
   *
   * @param id the document set's id
   * @return the document set
   */
  public DocumentSet get(String id) {
    return transport.send(getRequest(id), DocumentSets::read);
  }

  /**
   * The async twin of {@link #get}.
   *
   * @param id the document set's id
   * @return the document set, once it has arrived
   */
  public CompletableFuture<DocumentSet> getAsync(String id) {
    return transport.sendAsync(getRequest(id), DocumentSets::read);
  }

  /**
   * The forms of the document set; the same as {@code client.forms().list(id)}.
   *
   * @param id the document set's id
   * @return the forms, in the order the service lists them
   */
  public List<Form> forms(String id) {
    return forms.list(id);
  }

  /**
   * Waits with {@link PollOptions#defaults()}; see {@link #awaitCompletion(String, PollOptions)}.
   *
   * @param id the document set's id
   * @return the document set, complete
   */
  public DocumentSet awaitCompletion(String id) {
    return awaitCompletion(id, PollOptions.defaults());
  }

  /**
   * Polls the document set until its state is {@code complete}, waiting longer between polls as the
   * options say, and returns it complete. Every state seen, including ones the interface does not
   * list, is reported to the options' listener and waited through. Transient failures (network,
   * 408, 429, 500, 502, 503, 504) are retried by the transport and then ridden through until the
   * deadline, which also bounds the transport's own retries and {@code Retry-After} waits. The
   * calling thread's interrupt, or closing the client, stops the wait promptly (an interrupt keeps
   * the thread's interrupt flag set).
   *
   * <p>{@code input_needed}: the service may not yet have processed the last submission, so a set
   * still {@code input_needed} is polled for {@link PollOptions#inputNeededGrace()} from the start
   * of the wait; one that returns to {@code input_needed} after a later state stops the wait at
   * once.
   *
   * @param id the document set's id
   * @param options how to poll
   * @return the document set, complete
   * @throws InputNeededException if the set needs input (see above), unless the options say to wait
   *     through it
   * @throws PollTimeoutException if the timeout runs out first; it carries the last set seen
   * @throws FormationException on a failure that is not transient, or on interrupt
   */
  public DocumentSet awaitCompletion(String id, PollOptions options) {
    Objects.requireNonNull(options, "options");
    Poller poller = new Poller(id, options, ticker, random, retryPolicy, transport.events());
    ApiRequest poll = getRequest(id).asPoll(poller.deadline());
    Duration wait = poller.beforeFirstPoll();
    while (true) {
      sleep(id, wait);
      DocumentSet set = null;
      FormationException failure = null;
      try {
        set = transport.send(poll, DocumentSets::read);
      } catch (FormationException e) {
        failure = e;
      }
      wait = set != null ? poller.afterPoll(set) : poller.afterError(failure);
      if (wait == null) {
        return set;
      }
    }
  }

  private void sleep(String id, Duration wait) {
    if (wait.isZero()) {
      return;
    }
    try {
      transport.sleeper().sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FormationException("Interrupted while waiting for document set " + id, e);
    }
  }

  /**
   * The async twin of {@link #awaitCompletion(String)}.
   *
   * @param id the document set's id
   * @return the document set, once complete
   */
  public CompletableFuture<DocumentSet> awaitCompletionAsync(String id) {
    return awaitCompletionAsync(id, PollOptions.defaults());
  }

  /**
   * The async twin of {@link #awaitCompletion(String, PollOptions)}: the same decisions, but no
   * thread waits; polls run on OkHttp's dispatcher and waits on the client's scheduler. Cancelling
   * the future stops the polling: no request starts after the cancel is seen. The future always
   * completes: a listener that throws (even an {@link Error}) fails it.
   *
   * @param id the document set's id
   * @param options how to poll
   * @return the document set, once complete
   */
  public CompletableFuture<DocumentSet> awaitCompletionAsync(String id, PollOptions options) {
    Objects.requireNonNull(options, "options");
    Origins.requireId("document set id", id);
    Poller poller = new Poller(id, options, ticker, random, retryPolicy, transport.events());
    AsyncOperation<DocumentSet> operation = new AsyncOperation<>();
    Duration first = poller.beforeFirstPoll();
    if (first.isZero()) {
      pollAsync(id, poller, operation);
    } else {
      operation.after(transport.sleeper().delay(first), () -> pollAsync(id, poller, operation));
    }
    return operation.result();
  }

  /**
   * One poll of an async wait. The request is built anew for each poll rather than kept: a waiting
   * set then holds its id, not a URL, which matters for thousands of them.
   */
  private void pollAsync(String id, Poller poller, AsyncOperation<DocumentSet> operation) {
    CompletableFuture<DocumentSet> result =
        transport.sendAsync(getRequest(id).asPoll(poller.deadline()), DocumentSets::read);
    if (!operation.track(result)) {
      return;
    }
    result.whenComplete(
        (set, error) ->
            operation.run(
                () -> {
                  if (operation.isDone()) {
                    return;
                  }
                  Throwable failure = set != null ? null : AsyncOperation.unwrap(error);
                  if (failure != null && !(failure instanceof RuntimeException)) {
                    operation.fail(failure);
                    return;
                  }
                  Duration wait =
                      set != null
                          ? poller.afterPoll(set)
                          : poller.afterError((RuntimeException) failure);
                  if (wait == null) {
                    operation.complete(set);
                    return;
                  }
                  operation.after(
                      transport.sleeper().delay(wait), () -> pollAsync(id, poller, operation));
                }));
  }

  private static DocumentSet read(JsonResponse response) {
    return Wire.documentSet(response.body());
  }

  private ApiRequest createRequest(CreateDocumentSetParams params) {
    Objects.requireNonNull(params, "params");
    try {
      return new ApiRequest(
              "POST",
              origins.endpoint("document_sets"),
              Wire.WRITER.writeValueAsBytes(params.toJson()),
              ApiRequest.ANY_JSON,
              options)
          // One key per create: its retries carry it, no other request ever does.
          .withIdempotencyKey(params.idempotencyKey());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("The params cannot be written as JSON", e);
    }
  }

  private ApiRequest getRequest(String id) {
    Origins.requireId("document set id", id);
    return ApiRequest.get(origins.endpoint("document_sets", id), ApiRequest.ANY_JSON, options);
  }
}
