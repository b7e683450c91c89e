/**
 * Spring Boot auto-configuration of the Formation SDK; applications declare
 * formation-spring-boot-starter. Start with {@link
 * io.formation.spring.autoconfigure.FormationProperties} for the {@code formation.*} properties.
 */
package io.formation.spring.autoconfigure;
