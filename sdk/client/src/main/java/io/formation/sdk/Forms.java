package io.formation.sdk;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.json.Wire;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.JsonResponse;
import io.formation.sdk.internal.transport.Operation;
import io.formation.sdk.internal.transport.Transport;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The forms of a document set and their actions. Reached through {@link FormationClient#forms()}.
 *
 * <pre>{@code
 * for (Form form : client.forms().list(documentSetId)) {
 *   CompanyInfo info = client.forms().valuesAs(form, CompanyInfo.class);
 *   client.forms().submit(form, info.withName("Acme"));
 * }
 * }</pre>
 *
 * <p>Values can be a Jackson {@code JsonNode}, a {@code Map}, or any object Jackson can write
 * (records included). Action urls are used as {@link FormAction} says, and only on trusted origins.
 *
 * <p>A submission the service accepts (an action other than {@code GET} or {@code HEAD}, of a form
 * listed through this client) is remembered, for the 10,000 sets submitted to last, so that a wait
 * for its set started afterwards counts its {@code input_needed} grace from it (see {@link
 * WaitState}).
 */
public final class Forms {
  private final Transport transport;
  private final Origins origins;
  private final RequestOptions options;
  private final Submissions submissions;

  Forms(Transport transport, Origins origins, RequestOptions options, Submissions submissions) {
    this.transport = transport;
    this.origins = origins;
    this.options = options;
    this.submissions = submissions;
  }

  /**
   * {@return a view of these forms whose every call uses the given {@link RequestOptions}}
   *
   * @param options the settings
   */
  public Forms withOptions(RequestOptions options) {
    return new Forms(transport, origins, Objects.requireNonNull(options, "options"), submissions);
  }

  /**
   * {@return a set's forms in the service's order ({@code GET /v1/document_sets/{id}/forms})}
   *
   * @param documentSetId the document set's id
   */
  public List<Form> list(String documentSetId) {
    return transport.send(listRequest(documentSetId), r -> forms(documentSetId, r));
  }

  /**
   * {@return the forms, once they have arrived; the async twin of {@link #list}}
   *
   * @param documentSetId the document set's id
   */
  public CompletableFuture<List<Form>> listAsync(String documentSetId) {
    return transport.sendAsync(listRequest(documentSetId), r -> forms(documentSetId, r));
  }

  /**
   * Calls an action with the given values as the JSON body, with the action's method, at its url
   * exactly as returned.
   *
   * @param action the action, as the form returned it
   * @param values the JSON body: a {@code JsonNode}, a {@code Map} or any object Jackson can write
   * @return the status, the body and, if the body is a form or a document set, the parsed record
   * @throws ValidationException if the service rejects the values (422), with a pointer per field
   * @throws UntrustedOriginException if the url points at an untrusted origin; nothing is sent
   */
  public ActionResult invoke(FormAction action, Object values) {
    return transport.send(actionRequest(action, values), r -> result(action, r));
  }

  /**
   * {@return the result, once it has arrived; the async twin of {@link #invoke}}
   *
   * @param action the action, as the form returned it
   * @param values the JSON body: a {@code JsonNode}, a {@code Map} or any object Jackson can write
   */
  public CompletableFuture<ActionResult> invokeAsync(FormAction action, Object values) {
    return transport.sendAsync(actionRequest(action, values), r -> result(action, r));
  }

  /**
   * Submits values through the form's submit action: its only action, or the one named {@code
   * submit}.
   *
   * @param form the form, as listed
   * @param values the JSON body: a {@code JsonNode}, a {@code Map} or any object Jackson can write
   * @return the status, the body and, if the body is a form or a document set, the parsed record
   * @throws IllegalStateException if the form has no such action; use {@link #invoke} then
   */
  public ActionResult submit(Form form, Object values) {
    return invoke(form.submitAction(), values);
  }

  /**
   * {@return the result, once it has arrived; the async twin of {@link #submit}}
   *
   * @param form the form, as listed
   * @param values the JSON body: a {@code JsonNode}, a {@code Map} or any object Jackson can write
   */
  public CompletableFuture<ActionResult> submitAsync(Form form, Object values) {
    return invokeAsync(form.submitAction(), values);
  }

  /**
   * {@return the form's current values bound to a type of the caller's (a record, a map, a bean)}
   *
   * @param <T> the type to bind to
   * @param form the form
   * @param type the class of {@code T}
   * @throws IllegalArgumentException if the values do not fit the type
   */
  public <T> T valuesAs(Form form, Class<T> type) {
    try {
      return Wire.readerFor(type).readValue(form.values());
    } catch (IOException e) {
      String why = e instanceof JsonProcessingException json ? json.getOriginalMessage() : "" + e;
      throw Port.invalid(
          "The values of form " + form.id() + " do not fit " + type.getName() + ": " + why, e);
    }
  }

  /**
   * {@return a view of these forms whose calls return each result with the {@link ApiResponse} it
   * came in}
   */
  public WithResponse withResponse() {
    return new WithResponse();
  }

  /** {@link Forms} whose calls return an {@link ApiResponse}; see {@link #withResponse()}. */
  public final class WithResponse {
    private WithResponse() {}

    /**
     * {@return the forms and their response, as {@link Forms#list} reads them}
     *
     * @param documentSetId the document set's id
     */
    public ApiResponse<List<Form>> list(String documentSetId) {
      return transport.send(
          listRequest(documentSetId), r -> ApiResponse.of(r, forms(documentSetId, r)));
    }

    /**
     * {@return the forms and their response, when it arrives}
     *
     * @param documentSetId the document set's id
     */
    public CompletableFuture<ApiResponse<List<Form>>> listAsync(String documentSetId) {
      return transport.sendAsync(
          listRequest(documentSetId), r -> ApiResponse.of(r, forms(documentSetId, r)));
    }

    /**
     * {@return what the action returned and its response, as {@link Forms#invoke} calls it}
     *
     * @param action the action, as the form returned it
     * @param values the values to send
     */
    public ApiResponse<ActionResult> invoke(FormAction action, Object values) {
      return transport.send(
          actionRequest(action, values), r -> ApiResponse.of(r, result(action, r)));
    }

    /**
     * {@return what the action returned and its response, when it arrives}
     *
     * @param action the action, as the form returned it
     * @param values the values to send
     */
    public CompletableFuture<ApiResponse<ActionResult>> invokeAsync(
        FormAction action, Object values) {
      return transport.sendAsync(
          actionRequest(action, values), r -> ApiResponse.of(r, result(action, r)));
    }

    /**
     * {@return what the submit action returned and its response, as {@link Forms#submit} calls it}
     *
     * @param form the form
     * @param values the values to send
     */
    public ApiResponse<ActionResult> submit(Form form, Object values) {
      return invoke(form.submitAction(), values);
    }

    /**
     * {@return what the submit action returned and its response, when it arrives}
     *
     * @param form the form
     * @param values the values to send
     */
    public CompletableFuture<ApiResponse<ActionResult>> submitAsync(Form form, Object values) {
      return invokeAsync(form.submitAction(), values);
    }
  }

  private ApiRequest listRequest(String documentSetId) {
    Origins.requireId("document set id", documentSetId);
    return ApiRequest.get(
            origins.endpoint("document_sets", documentSetId, "forms"),
            ApiRequest.ANY_JSON,
            options.call())
        .as(Operation.named("Forms.list").onSet(documentSetId));
  }

  private ApiRequest actionRequest(FormAction action, Object values) {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(values, "values");
    byte[] body;
    try {
      body = Wire.boundWriter().writeValueAsBytes(values);
    } catch (JsonProcessingException e) {
      throw Port.invalid("The values cannot be written as JSON: " + e.getOriginalMessage(), e);
    }
    boolean bodiless = action.method().equals("GET") || action.method().equals("HEAD");
    Submissions.Owner owner = submissions.owner(action);
    Operation operation = Operation.named("Forms.invoke");
    return new ApiRequest(
            action.method(),
            origins.resolve(action.url()),
            bodiless ? null : body,
            ApiRequest.ANY_JSON,
            options.call())
        .as(owner == null ? operation : operation.onSet(owner.setId()).onForm(owner.formId()));
  }

  private List<Form> forms(String documentSetId, JsonResponse response) {
    List<Form> forms = Wire.forms(response.body());
    submissions.listed(documentSetId, forms);
    return forms;
  }

  /** An accepted action: noted, so a wait started afterwards counts its grace from it. */
  private ActionResult result(FormAction action, JsonResponse response) {
    ActionResult result = Wire.actionResult(response.statusCode(), response.body());
    submissions.accepted(action, result);
    return result;
  }
}
