package io.formation.examples.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;

/**
 * The web example: a Spring Boot backend that holds the access token and calls the SDK, serving a
 * page that renders each form of a document set with JSON Forms.
 *
 * <pre>{@code
 * java -jar examples/web/target/formation-web.jar                     # the embedded sandbox
 * FORMATION_BASE_URL=https://api.example.com FORMATION_ACCESS_TOKEN=... \
 *     java -jar examples/web/target/formation-web.jar --server.port=9000
 * }</pre>
 */
@SpringBootApplication
public class WebExample {
  private static final Logger log = LoggerFactory.getLogger(WebExample.class);

  /** Starts the application; Spring Boot's usual arguments apply ({@code --server.port=...}). */
  public static void main(String[] args) {
    SpringApplication.run(WebExample.class, args);
  }

  @EventListener
  void ready(ApplicationReadyEvent event) {
    String port = event.getApplicationContext().getEnvironment().getProperty("local.server.port");
    if (port != null) {
      log.info("Open http://localhost:{}", port);
    }
  }
}
