package io.formation.sandbox;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One JSON:API error object. At most one of {@code pointer} and {@code parameter} is set; both may
 * be null.
 */
record ApiError(
    int status, String code, String title, String detail, String pointer, String parameter) {

  ApiError {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(detail, "detail");
  }

  static ApiError of(int status, String code, String title, String detail) {
    return new ApiError(status, code, title, detail, null, null);
  }

  ObjectNode toJson() {
    ObjectNode error = Json.object();
    error.put("status", Integer.toString(status));
    error.put("code", code);
    error.put("title", title);
    error.put("detail", detail);
    if (pointer != null) {
      error.putObject("source").put("pointer", pointer);
    } else if (parameter != null) {
      error.putObject("source").put("parameter", parameter);
    }
    return error;
  }
}
