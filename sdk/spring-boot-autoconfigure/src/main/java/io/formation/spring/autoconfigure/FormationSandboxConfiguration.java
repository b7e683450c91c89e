package io.formation.spring.autoconfigure;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.FormationClient;
import io.formation.spring.autoconfigure.FormationAutoConfiguration.SandboxConnection;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The development sandbox: with no {@code formation.base-url}, formation-sandbox on the class path
 * and {@code formation.sandbox.enabled=true} or one of {@code formation.sandbox.profiles} active, a
 * sandbox is started on a loopback port, the client is pointed at it, and the log says so. A {@link
 * SandboxOptions} bean tunes it; the sandbox is a bean, stopped with the application.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.formation.sandbox.FormationSandbox")
@ConditionalOnMissingBean(FormationClient.class)
@Conditional(FormationSandboxConfiguration.SandboxWanted.class)
class FormationSandboxConfiguration {
  private static final Log log = LogFactory.getLog(FormationSandboxConfiguration.class);

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  FormationSandbox formationSandbox(ObjectProvider<SandboxOptions> options) {
    FormationSandbox sandbox =
        FormationSandbox.start(options.getIfAvailable(SandboxOptions::defaults));
    log.info(
        "No formation.base-url is configured and the development sandbox is asked for: started"
            + " the Formation sandbox at "
            + sandbox.baseUrl()
            + "; the FormationClient talks to it");
    return sandbox;
  }

  @Bean
  SandboxConnection formationSandboxConnection(FormationSandbox sandbox) {
    return new SandboxConnection(sandbox.baseUrl(), sandbox.token());
  }

  /** No base URL, and the sandbox asked for by property or profile. */
  static final class SandboxWanted extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(
        ConditionContext context, AnnotatedTypeMetadata metadata) {
      Environment environment = context.getEnvironment();
      // Bound as the client's properties are: a placeholder nothing resolves is a configured value,
      // refused with its name when the client is built, not an exception thrown from here.
      String baseUrl =
          Binder.get(environment).bind(PropertiesToBuilder.BASE_URL, String.class).orElse(null);
      if (baseUrl != null && !baseUrl.isBlank()) {
        return ConditionOutcome.noMatch("formation.base-url is configured");
      }
      if (environment.getProperty("formation.sandbox.enabled", Boolean.class, false)) {
        return ConditionOutcome.match("no formation.base-url; formation.sandbox.enabled=true");
      }
      List<String> profiles =
          Binder.get(environment)
              .bind("formation.sandbox.profiles", Bindable.listOf(String.class))
              .orElse(FormationProperties.Sandbox.DEFAULT_PROFILES);
      for (String profile : profiles) {
        if (environment.acceptsProfiles(Profiles.of(profile))) {
          return ConditionOutcome.match("no formation.base-url; profile " + profile + " is active");
        }
      }
      return ConditionOutcome.noMatch(
          "neither formation.sandbox.enabled=true nor one of the profiles " + profiles);
    }
  }
}
