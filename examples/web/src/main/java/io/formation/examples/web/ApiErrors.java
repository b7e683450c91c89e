package io.formation.examples.web;

import io.formation.sdk.ApiException;
import io.formation.sdk.ConflictException;
import io.formation.sdk.FormationException;
import io.formation.sdk.NotFoundException;
import io.formation.sdk.ValidationException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns failures into RFC 9457 problem documents for the page, as Spring Boot does for its own
 * errors ({@code spring.mvc.problemdetails.enabled}). The service's 422 keeps each error's JSON
 * Pointer, so the page shows every message at its field.
 */
@RestControllerAdvice
final class ApiErrors {
  private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);

  /** One message of the service about one value, {@code pointer} "" for the whole form. */
  record FieldError(String pointer, String message) {}

  @ExceptionHandler
  ProblemDetail rejected(ValidationException e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.UNPROCESSABLE_CONTENT, "The service did not accept these values.");
    problem.setTitle("Values rejected");
    // The service's own words, for the partner's logs; the page shows plain ones of its own.
    e.errors()
        .forEach(
            error ->
                log.info(
                    "The service rejected {}: {}",
                    error.pointer().orElse("the form"),
                    error.message()));
    List<FieldError> errors =
        e.errors().stream()
            .map(error -> new FieldError(error.pointer().orElse(""), error.message()))
            .toList();
    problem.setProperty("errors", errors);
    return problem;
  }

  @ExceptionHandler
  ProblemDetail badRequest(BadRequest e) {
    return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
  }

  @ExceptionHandler
  ResponseEntity<ProblemDetail> tooMany(TooMany e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS, e.getMessage());
    problem.setTitle("Too many requests");
    return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
        .header(HttpHeaders.RETRY_AFTER, String.valueOf(Math.max(1, e.retryAfter().toSeconds())))
        .body(problem);
  }

  @ExceptionHandler
  ProblemDetail notHere(NotHere e) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
    if (e.formation) {
      // The person (their cookie) no longer holds this set: the page says so and how to go on.
      problem.setProperty("lost", "session");
    }
    return problem;
  }

  @ExceptionHandler
  ProblemDetail unknownToTheService(NotFoundException e) {
    log.info("{}", e.getMessage());
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ServiceErrors.describe(e));
    problem.setProperty("lost", "service");
    return problem;
  }

  @ExceptionHandler
  ProblemDetail conflict(ConflictException e) {
    return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ServiceErrors.describe(e));
  }

  @ExceptionHandler
  ProblemDetail closed(FormClosed e) {
    return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
  }

  @ExceptionHandler
  ProblemDetail serviceFailed(ApiException e) {
    log.warn("{}", e.getMessage());
    return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY, ServiceErrors.describe(e));
  }

  @ExceptionHandler
  ProblemDetail unreachable(FormationException e) {
    log.warn("{}", e.getMessage());
    return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY, ServiceErrors.describe(e));
  }
}
