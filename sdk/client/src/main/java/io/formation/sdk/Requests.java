package io.formation.sdk;

import io.formation.sdk.internal.json.Wire;
import io.formation.sdk.internal.transport.JsonResponse;
import io.formation.sdk.model.DocumentSet;

/** How the answers to the document set requests read, for the calls and the polls of a wait. */
final class Requests {
  private Requests() {}

  static DocumentSet documentSet(JsonResponse response) {
    return Wire.documentSet(response.body());
  }
}
