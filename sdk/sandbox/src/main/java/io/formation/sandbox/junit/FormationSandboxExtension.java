package io.formation.sandbox.junit;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import java.util.Objects;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Runs a {@link FormationSandbox} for JUnit Jupiter tests and injects it into test methods and
 * constructors that ask for one.
 *
 * <pre>{@code
 * class CheckoutTest {
 *   @RegisterExtension
 *   static FormationSandboxExtension sandbox =
 *       FormationSandboxExtension.withOptions(SandboxOptions.defaults().withReview(true));
 *
 *   @Test
 *   void formsACompany() {
 *     FormationClient client =
 *         FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build();
 *     ...
 *   }
 *
 *   @Test
 *   void sendsOneCreate(FormationSandbox running) {   // the same sandbox, injected
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Registered on a static field, or declaratively with
 * {@code @ExtendWith(FormationSandboxExtension.class)} (default options), one sandbox serves the
 * whole test class and is closed after its last test; registered on an instance field, each test
 * gets its own. Its recorded requests then accumulate over the class: compare counts, or use an
 * instance field where a test needs a recording of its own.
 *
 * <p>JUnit is an optional dependency of the sandbox artifact: this package needs {@code
 * junit-jupiter-api} on the test class path, as any Jupiter test has.
 */
public final class FormationSandboxExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  private final SandboxOptions options;
  private FormationSandbox sandbox;
  private boolean perClass;

  /** Creates an extension with {@link SandboxOptions#defaults()}, for {@code @ExtendWith}. */
  public FormationSandboxExtension() {
    this(SandboxOptions.defaults());
  }

  private FormationSandboxExtension(SandboxOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** Returns an extension that starts its sandbox with these options. */
  public static FormationSandboxExtension withOptions(SandboxOptions options) {
    return new FormationSandboxExtension(options);
  }

  /** Returns an extension with default options. */
  public static FormationSandboxExtension withDefaults() {
    return new FormationSandboxExtension(SandboxOptions.defaults());
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) {
    perClass = true;
    running();
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    stop();
  }

  @Override
  public synchronized void beforeEach(ExtensionContext context) {
    running();
  }

  @Override
  public synchronized void afterEach(ExtensionContext context) {
    if (!perClass) {
      stop();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == FormationSandbox.class;
  }

  @Override
  public synchronized Object resolveParameter(
      ParameterContext parameter, ExtensionContext context) {
    return running();
  }

  /**
   * Returns the running sandbox.
   *
   * @throws IllegalStateException outside a test of the class that registered this extension
   */
  public synchronized FormationSandbox get() {
    if (sandbox == null) {
      throw new IllegalStateException("the sandbox runs only while a test of its class runs");
    }
    return sandbox;
  }

  /** Returns the running sandbox's base URL; see {@link FormationSandbox#baseUrl()}. */
  public String baseUrl() {
    return get().baseUrl();
  }

  /** Returns the running sandbox's bearer token; see {@link FormationSandbox#token()}. */
  public String token() {
    return get().token();
  }

  private FormationSandbox running() {
    if (sandbox == null) {
      sandbox = FormationSandbox.start(options);
    }
    return sandbox;
  }

  private void stop() {
    if (sandbox != null) {
      sandbox.close();
      sandbox = null;
    }
  }
}
