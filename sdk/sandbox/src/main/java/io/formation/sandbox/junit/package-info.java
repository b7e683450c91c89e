/**
 * JUnit Jupiter support for the Formation sandbox: {@link
 * io.formation.sandbox.junit.FormationSandboxExtension}. Only this package needs JUnit.
 */
package io.formation.sandbox.junit;
