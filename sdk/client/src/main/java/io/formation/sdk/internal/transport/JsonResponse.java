package io.formation.sdk.internal.transport;

import com.fasterxml.jackson.databind.JsonNode;
import okhttp3.Headers;

/** A successful response, its body parsed. */
public record JsonResponse(int statusCode, Headers headers, JsonNode body) {}
