package io.formation.sdk.internal.transport;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** A call's own settings, as the public {@code RequestOptions} checked them. */
public record CallOptions(
    Map<String, String> headers, Optional<Duration> timeout, OptionalInt maxRetries) {
  public static final CallOptions NONE =
      new CallOptions(Map.of(), Optional.empty(), OptionalInt.empty());

  public CallOptions {
    headers = Map.copyOf(headers);
  }
}
