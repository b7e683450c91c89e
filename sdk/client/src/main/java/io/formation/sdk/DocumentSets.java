package io.formation.sdk;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.json.Wire;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.JsonResponse;
import io.formation.sdk.internal.transport.Operation;
import io.formation.sdk.internal.transport.Transport;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

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
  private final Submissions submissions;
  private final RequestOptions options;
  private final WaitLoop waits;

  DocumentSets(
      Transport transport,
      Origins origins,
      Forms forms,
      Submissions submissions,
      WaitLoop waits,
      RequestOptions options) {
    this.transport = transport;
    this.origins = origins;
    this.forms = forms;
    this.submissions = submissions;
    this.options = options;
    this.waits = waits.withRequests(this::getRequest);
  }

  /**
   * {@return a view of these document sets whose every call, blocking or async, polls of a wait
   * included, uses these settings (see {@link RequestOptions})}
   *
   * @param options the settings
   */
  public DocumentSets withOptions(RequestOptions options) {
    Objects.requireNonNull(options, "options");
    return new DocumentSets(
        transport, origins, forms.withOptions(options), submissions, waits, options);
  }

  /**
   * {@return a view of these document sets whose calls return each result with the {@link
   * ApiResponse} it came in}
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
     * {@return the new document set and its response, as {@link DocumentSets#create(String)}}
     *
     * @param template the template, such as {@link #DELAWARE_CORPORATION}
     */
    public ApiResponse<DocumentSet> create(String template) {
      return create(CreateDocumentSetParams.of(template));
    }

    /**
     * {@return the new document set and its response, when it arrives; see {@link #create(String)}}
     *
     * @param template the template, such as {@link #DELAWARE_CORPORATION}
     */
    public CompletableFuture<ApiResponse<DocumentSet>> createAsync(String template) {
      return createAsync(CreateDocumentSetParams.of(template));
    }

    /**
     * {@return the new document set and its response, as {@link
     * DocumentSets#create(CreateDocumentSetParams)}}
     *
     * @param params the body of the create
     */
    public ApiResponse<DocumentSet> create(CreateDocumentSetParams params) {
      return transport.send(createRequest(params), DocumentSets::withResponse);
    }

    /**
     * {@return the new document set and its response, when it arrives}
     *
     * @param params the body of the create
     */
    public CompletableFuture<ApiResponse<DocumentSet>> createAsync(CreateDocumentSetParams params) {
      return transport.sendAsync(createRequest(params), DocumentSets::withResponse);
    }

    /**
     * {@return the document set and its response, as {@link DocumentSets#get} reads it}
     *
     * @param id the document set's id
     */
    public ApiResponse<DocumentSet> get(String id) {
      return transport.send(getRequest(id), DocumentSets::withResponse);
    }

    /**
     * {@return the document set and its response, when it arrives}
     *
     * @param id the document set's id
     */
    public CompletableFuture<ApiResponse<DocumentSet>> getAsync(String id) {
      return transport.sendAsync(getRequest(id), DocumentSets::withResponse);
    }
  }

  /**
   * {@return a document set created from a template ({@code POST /v1/document_sets}), as it starts}
   *
   * @param template the template, such as {@link #DELAWARE_CORPORATION}
   */
  public DocumentSet create(String template) {
    return create(CreateDocumentSetParams.of(template));
  }

  /**
   * {@return the new document set, once created; the async twin of {@link #create(String)}}
   *
   * @param template the template, such as {@link #DELAWARE_CORPORATION}
   */
  public CompletableFuture<DocumentSet> createAsync(String template) {
    return createAsync(CreateDocumentSetParams.of(template));
  }

  /**
   * {@return a document set created from a template with further body fields, as it starts}
   *
   * @param params the template and the further body fields
   */
  public DocumentSet create(CreateDocumentSetParams params) {
    return transport.send(createRequest(params), DocumentSets::documentSet);
  }

  /**
   * {@return the new document set, once created; see {@link #create(CreateDocumentSetParams)}}
   *
   * @param params the template and the further body fields
   */
  public CompletableFuture<DocumentSet> createAsync(CreateDocumentSetParams params) {
    return transport.sendAsync(createRequest(params), DocumentSets::documentSet);
  }

  /**
   * {@return the document set with its current state ({@code GET /v1/document_sets/{id}})}
   *
   * @param id the document set's id
   */
  public DocumentSet get(String id) {
    return transport.send(getRequest(id), DocumentSets::documentSet);
  }

  /**
   * {@return the document set, once it has arrived; the async twin of {@link #get}}
   *
   * @param id the document set's id
   */
  public CompletableFuture<DocumentSet> getAsync(String id) {
    return transport.sendAsync(getRequest(id), DocumentSets::documentSet);
  }

  /**
   * {@return the set's forms, in the order the service lists them, as {@link Forms#list} returns}
   *
   * @param id the document set's id
   */
  public List<Form> forms(String id) {
    return forms.list(id);
  }

  /**
   * A wait for the document set that begins now by the options' {@link PollOptions#clock() clock},
   * to save and resume or to poll one step at a time (see {@link WaitState}). Its deadline is
   * {@link PollOptions#timeout()} from now, its first interval {@link
   * PollOptions#initialInterval()}, and its {@link WaitState#lastSubmission()} the last submission
   * of the set's forms through this client, if any.
   *
   * @param id the document set's id
   * @param options how to poll; their timeout and first interval are taken into the wait
   * @return the wait, its first poll due now
   * @throws IllegalArgumentException if the id is blank, or too long to save (over 1,024 characters
   *     once %-escaped)
   */
  public WaitState startWait(String id, PollOptions options) {
    Objects.requireNonNull(options, "options");
    Clock clock = waits.clock(options);
    return WaitState.start(
        id,
        clock.instant(),
        options,
        submissions.last(id, clock).orElse(null),
        waits.createdIn(id));
  }

  /**
   * One poll of a wait, for partners who schedule polls themselves (see {@link PollResult}): reads
   * the document set once and says what happened and when to poll next. A call made within 100 ms
   * of the wait's last poll first waits out the rest; one made when no poll may be sent before the
   * deadline waits until it and ends the wait.
   *
   * @param wait the wait, as started or as the previous poll returned it
   * @param options how to poll; the same for every poll of the wait, which does not save them
   * @return what the poll found, the wait after it and when to poll next
   * @throws PollTimeoutException if the wait's deadline has come and the set is not complete,
   *     whatever its state; its cause is the last poll's failure, if it failed
   * @throws NotFoundException if there is no such document set
   * @throws FormationException on any other failure that is not transient (401, 403, an answer that
   *     is not a document set) unless {@link PollOptions#retryFailuresAfter()} is set, or on
   *     interrupt
   */
  public PollResult poll(WaitState wait, PollOptions options) {
    return waits.poll(wait, options);
  }

  /**
   * {@return what {@link #poll} finds, once it has, or fails as it throws; no thread waits}
   *
   * @param wait the wait, as started or as the previous poll returned it
   * @param options how to poll
   */
  public CompletableFuture<PollResult> pollAsync(WaitState wait, PollOptions options) {
    return waits.pollAsync(wait, options);
  }

  /**
   * {@return the document set, complete: {@link #awaitCompletion(String, PollOptions)} with {@link
   * PollOptions#defaults()}}
   *
   * @param id the document set's id
   */
  public DocumentSet awaitCompletion(String id) {
    return awaitCompletion(id, PollOptions.defaults());
  }

  /**
   * Polls the document set until its state is {@code complete}, waiting longer between polls as the
   * options say, and returns it complete. Every state seen, including ones the interface does not
   * list, is reported to the options' listener and waited through, {@code input_needed} for its
   * {@link PollOptions#inputNeededGrace() grace}. Transient failures (network, 408, 429, 500, 502,
   * 503, 504) are retried by the transport and then ridden through. The wait ends at its deadline
   * whatever the set's state, and neither polls nor sleeps past it, the transport's retries and
   * {@code Retry-After} waits included. No two polls come closer than 100 ms. The calling thread's
   * interrupt, or closing the client, stops the wait promptly (an interrupt keeps the thread's
   * interrupt flag set).
   *
   * <p>This is {@link #startWait(String, PollOptions)} then {@link #awaitCompletion(WaitState,
   * PollOptions)}: call those to save the {@link WaitState} and resume it after a restart.
   *
   * @param id the document set's id
   * @param options how to poll
   * @return the document set, complete
   * @throws InputNeededException if the set needs input, unless the options say to wait through it
   * @throws PollTimeoutException if the deadline comes first; it carries the last set seen
   * @throws FormationException on a failure that is not transient, or on interrupt
   */
  public DocumentSet awaitCompletion(String id, PollOptions options) {
    return awaitCompletion(startWait(id, options), options);
  }

  /**
   * Resumes a saved wait and polls until the set is complete, as if the wait had never stopped: the
   * same deadline, backoff and {@code input_needed} grace. Its first poll comes when the saved wait
   * says, or within {@link PollOptions#firstPollWithin()} if that has passed.
   *
   * <pre>{@code
   * for (Row row : store.unfinished()) {
   *   client.documentSets()
   *       .awaitCompletionAsync(WaitState.decode(row.wait()), options)
   *       .thenAccept(done -> store.complete(done.id()));
   * }
   * }</pre>
   *
   * @param wait the saved wait
   * @param options how to poll; the same as when the wait began, or not: only the deadline, the
   *     interval reached and what was seen come from the wait
   * @return the document set, complete
   * @throws InputNeededException if the set needs input, unless the options say to wait through it
   * @throws PollTimeoutException if the wait's deadline comes first
   * @throws FormationException on a failure that is not transient, or on interrupt
   */
  public DocumentSet awaitCompletion(WaitState wait, PollOptions options) {
    return waits.await(wait, options);
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
    return awaitCompletionAsync(startWait(id, options), options);
  }

  /**
   * {@return the document set, once complete; the async twin of {@link #awaitCompletion(WaitState,
   * PollOptions)}}
   *
   * @param wait the saved wait
   * @param options how to poll
   */
  public CompletableFuture<DocumentSet> awaitCompletionAsync(WaitState wait, PollOptions options) {
    return waits.awaitAsync(wait, options);
  }

  /** A create, with one idempotency key its retries carry and no other request does. */
  private ApiRequest createRequest(CreateDocumentSetParams params) {
    Objects.requireNonNull(params, "params");
    try {
      byte[] body = Wire.write(params.toJson());
      return new ApiRequest(
              "POST", origins.endpoint("document_sets"), body, ApiRequest.ANY_JSON, options.call())
          .withIdempotencyKey(params.idempotencyKey())
          .as(Operation.named(Events.CREATE));
    } catch (JsonProcessingException e) {
      throw Port.invalid("The params cannot be written as JSON", e);
    }
  }

  private ApiRequest getRequest(String id) {
    Origins.requireId("document set id", id);
    return ApiRequest.get(
            origins.endpoint("document_sets", id), ApiRequest.ANY_JSON, options.call())
        .as(Operation.named("DocumentSets.get").onSet(id));
  }

  /** How an answer reads as a set, for the calls here and the polls of a wait. */
  static DocumentSet documentSet(JsonResponse response) {
    return Wire.documentSet(response.body());
  }

  private static ApiResponse<DocumentSet> withResponse(JsonResponse response) {
    return ApiResponse.of(response, documentSet(response));
  }
}
