/**
 * A local simulation of the Document Set Formation Service for partners' tests and demos: {@link
 * io.formation.sandbox.FormationSandbox} serves the interface on a loopback port, {@link
 * io.formation.sandbox.FormValidator} checks form values the way it does, and {@link
 * io.formation.sandbox.junit.FormationSandboxExtension} runs one per JUnit test class.
 *
 * <pre>{@code
 * try (FormationSandbox sandbox = FormationSandbox.start()) {
 *   FormationClient client =
 *       FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build();
 *   ...
 * }
 * }</pre>
 */
module io.formation.sandbox {
  requires transitive com.fasterxml.jackson.databind;
  requires com.networknt.schema;
  requires jdk.httpserver;
  requires static transitive org.junit.jupiter.api;

  exports io.formation.sandbox;
  exports io.formation.sandbox.junit;
}
