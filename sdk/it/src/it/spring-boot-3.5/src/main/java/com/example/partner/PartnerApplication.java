package com.example.partner;

import io.formation.sdk.FormationClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** A partner's application: one shared FormationClient, closed with the context. */
@SpringBootApplication
public class PartnerApplication {
  @Bean(destroyMethod = "close")
  FormationClient formationClient(
      @Value("${formation.base-url}") String baseUrl,
      @Value("${formation.access-token}") String accessToken) {
    return FormationClient.builder().baseUrl(baseUrl).accessToken(accessToken).build();
  }

  public static void main(String[] args) {
    SpringApplication.run(PartnerApplication.class, args);
  }
}
