/**
 * The internals, not part of the public API; {@link io.formation.sdk.internal.Port} is their one
 * way to the public package. Subpackages: {@code transport} (attempts, interceptors, outcomes),
 * {@code limits} (what an answer means, the rate, pauses and queues), {@code time}, {@code json},
 * {@code guards} (checks of values and URLs, redaction, the log, library versions).
 */
package io.formation.sdk.internal;
