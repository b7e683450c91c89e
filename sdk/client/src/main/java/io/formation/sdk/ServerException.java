package io.formation.sdk;

/**
 * A 5xx status: the service failed. Transient ones (500, 502, 503, 504) were already retried for
 * safe methods before this is thrown.
 */
public class ServerException extends ApiException {
  private static final long serialVersionUID = 1L;

  ServerException(ApiException.Answer answer) {
    super(answer);
  }
}
