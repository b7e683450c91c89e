package io.formation.sdk;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.json.Wire;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.JsonResponse;
import io.formation.sdk.internal.transport.Operation;
import io.formation.sdk.model.DocumentSet;
import java.util.Objects;

/** The document set requests the services send, and how their answers read. */
final class Requests {
  private Requests() {}

  static DocumentSet documentSet(JsonResponse response) {
    return Wire.documentSet(response.body());
  }

  /** A create, with one idempotency key its retries carry and no other request does. */
  static ApiRequest createSet(
      Origins origins, RequestOptions options, CreateDocumentSetParams params) {
    Objects.requireNonNull(params, "params");
    try {
      return new ApiRequest(
              "POST",
              origins.endpoint("document_sets"),
              Wire.write(params.toJson()),
              ApiRequest.ANY_JSON,
              options.call())
          .withIdempotencyKey(params.idempotencyKey())
          .as(Operation.named(Events.CREATE));
    } catch (JsonProcessingException e) {
      throw Port.invalid("The params cannot be written as JSON", e);
    }
  }

  static ApiRequest getSet(Origins origins, RequestOptions options, String id) {
    Origins.requireId("document set id", id);
    return ApiRequest.get(
            origins.endpoint("document_sets", id), ApiRequest.ANY_JSON, options.call())
        .as(Operation.named("DocumentSets.get").onSet(id));
  }
}
