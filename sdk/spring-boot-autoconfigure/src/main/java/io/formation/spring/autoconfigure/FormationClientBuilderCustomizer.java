package io.formation.spring.autoconfigure;

import io.formation.sdk.FormationClient;

/**
 * Adjusts the auto-configured client's builder after the {@code formation.*} properties are
 * applied, for what properties do not cover: a listener, an OkHttp client to share, a setting
 * computed at startup. Every bean of this type is applied, in {@code @Order}.
 *
 * <pre>{@code
 * @Bean
 * FormationClientBuilderCustomizer sharedHttp(OkHttpClient http) {
 *   return builder -> builder.httpClient(http);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface FormationClientBuilderCustomizer {
  /**
   * Adjusts the builder.
   *
   * @param builder the builder, with the properties applied
   */
  void customize(FormationClient.Builder builder);
}
