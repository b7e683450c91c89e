package io.formation.spring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.test.context.TestPropertySource;

/**
 * Runs a {@code @SpringBootTest} against the Formation sandbox: the application's {@code
 * FormationClient} talks to a sandbox started with the test's application context, whatever base
 * URL the application's configuration names. The sandbox is a bean, to inspect what it received; a
 * {@code SandboxOptions} bean tunes it. Needs formation-sandbox on the test class path.
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureFormationSandbox
 * class OnboardingTest {
 *   @Autowired DocumentSets documentSets;
 *   @Autowired FormationSandbox sandbox;
 *
 *   @Test
 *   void startsAFormation() {
 *     DocumentSet set = documentSets.create(DocumentSets.DELAWARE_CORPORATION);
 *     assertThat(sandbox.documentSet(set.id())).isPresent();
 *   }
 * }
 * }</pre>
 *
 * <p>Test classes with the same configuration share one application context, and so one sandbox;
 * add {@code @DirtiesContext} for a sandbox of the class's own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@TestPropertySource(properties = {"formation.base-url=", "formation.sandbox.enabled=true"})
public @interface AutoConfigureFormationSandbox {}
