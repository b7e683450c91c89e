package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxRequest;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.model.DocumentSet;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class SandboxAutoConfigurationTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(FormationAutoConfiguration.class));

  @Test
  void askedForWithNoBaseUrlTheSandboxIsStartedAndTheClientTalksToIt(CapturedOutput output) {
    runner
        .withPropertyValues("formation.sandbox.enabled=true")
        .run(
            context -> {
              FormationSandbox sandbox = context.getBean(FormationSandbox.class);
              DocumentSet set =
                  context.getBean(DocumentSets.class).create(DocumentSets.DELAWARE_CORPORATION);

              assertThat(sandbox.documentSet(set.id())).isPresent();
              assertThat(sandbox.requests()).isNotEmpty().allMatch(SandboxRequest::authorized);
              assertThat(output).contains("started the Formation sandbox at " + sandbox.baseUrl());
            });
  }

  @Test
  void anActiveDevProfileAsksForTheSandbox() {
    runner
        .withInitializer(context -> context.getEnvironment().setActiveProfiles("dev"))
        .run(context -> assertThat(context).hasSingleBean(FormationSandbox.class));
  }

  @Test
  void theProfilesThatAskForItAreConfigurable() {
    runner
        .withPropertyValues("formation.sandbox.profiles=offline")
        .withInitializer(context -> context.getEnvironment().setActiveProfiles("dev"))
        .run(context -> assertThat(context).hasFailed());
    runner
        .withPropertyValues("formation.sandbox.profiles=offline")
        .withInitializer(context -> context.getEnvironment().setActiveProfiles("offline"))
        .run(context -> assertThat(context).hasSingleBean(FormationSandbox.class));
  }

  @Test
  void theSandboxStopsWithTheApplication() {
    FormationSandbox[] kept = new FormationSandbox[1];
    runner
        .withPropertyValues("formation.sandbox.enabled=true")
        .run(context -> kept[0] = context.getBean(FormationSandbox.class));

    URI base = URI.create(kept[0].baseUrl());
    assertThatThrownBy(() -> new Socket(base.getHost(), base.getPort()).close())
        .isInstanceOf(IOException.class);
  }

  @Test
  void aConfiguredBaseUrlWinsOverTheSandbox() {
    runner
        .withPropertyValues(
            "formation.sandbox.enabled=true",
            "formation.base-url=https://api.example.com",
            "formation.access-token=tok")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(FormationSandbox.class);
              assertThat(context.getBean(DocumentSets.class)).isNotNull();
            });
  }

  @Test
  void notAskedForThereIsNoSandboxAndTheBaseUrlIsRequired() {
    runner.run(
        context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .rootCause()
              .isInstanceOf(InvalidFormationPropertyException.class)
              .hasMessageContaining("formation.base-url");
        });
  }

  @Test
  void withoutTheSandboxOnTheClassPathTheBaseUrlIsRequired() {
    runner
        .withClassLoader(new FilteredClassLoader(FormationSandbox.class))
        .withPropertyValues("formation.sandbox.enabled=true")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .hasMessageContaining("formation.base-url");
            });
  }
}
