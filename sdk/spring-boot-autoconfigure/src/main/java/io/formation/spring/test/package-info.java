/** Test support for applications using the Formation Spring Boot starter. */
package io.formation.spring.test;
