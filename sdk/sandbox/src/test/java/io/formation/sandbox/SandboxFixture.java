package io.formation.sandbox;

import io.formation.testkit.FakeTime;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A sandbox started for each test with the test's options, an HTTP client for it, closed after. */
abstract class SandboxFixture {
  final FakeTime clock = new FakeTime(Instant.parse("2025-03-04T05:06:07Z"));
  FormationSandbox sandbox;
  SandboxHttp http;

  /** The options of each test's sandbox; the defaults unless the test says otherwise. */
  SandboxOptions options() {
    return SandboxOptions.defaults();
  }

  /** The defaults on the test's clock, which moves only when the test advances it. */
  SandboxOptions onTheTestsClock() {
    return SandboxOptions.defaults().withClock(clock);
  }

  @BeforeEach
  void startSandbox() {
    sandbox = FormationSandbox.start(options());
    http = new SandboxHttp(sandbox);
  }

  @AfterEach
  void closeSandbox() {
    sandbox.close();
  }
}
