package io.formation.spring.autoconfigure;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The SDK's switch, {@code FORMATION_LOG=debug} (or {@code -Dformation.log=debug}), as {@code
 * logging.level.io.formation.sdk}, so its lines go through the application's logging system instead
 * of straight to standard error. Added last: a level the application configures wins.
 *
 * <p>Registered under Boot 3.5's key, which Boot 4 still reads (deprecated there); the interface
 * Boot 4 moved is not on Boot 3.5's class path.
 */
@SuppressWarnings({"deprecation", "removal"})
final class FormationLogLevel implements org.springframework.boot.env.EnvironmentPostProcessor {
  static final String LEVEL = "logging.level.io.formation.sdk";

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    String level = environment.getProperty("formation.log");
    if (level == null || level.isBlank() || environment.containsProperty(LEVEL)) {
      return;
    }
    environment
        .getPropertySources()
        .addLast(new MapPropertySource("formationLog", Map.of(LEVEL, level.strip())));
  }
}
