package com.example.partner;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A partner's application with formation-spring-boot-starter: no Formation wiring of its own. The
 * FormationClient, its services, the JSON of its models, its meters and its log come with the
 * starter.
 */
@SpringBootApplication
public class PartnerApplication {
  public static void main(String[] args) {
    SpringApplication.run(PartnerApplication.class, args);
  }
}
