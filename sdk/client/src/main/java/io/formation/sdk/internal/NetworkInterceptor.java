package io.formation.sdk.internal;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Runs for every request that actually goes on the wire, redirects included, as the last network
 * interceptor: the token is added only for a trusted origin, and no other interceptor sees it.
 */
final class NetworkInterceptor implements Interceptor {
  private final Origins origins;

  NetworkInterceptor(Origins origins) {
    this.origins = origins;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Attempt attempt = request.tag(Attempt.class);
    if (attempt == null) {
      return chain.proceed(request);
    }
    attempt.markSent();
    Request.Builder sent = request.newBuilder().removeHeader("Authorization");
    if (origins.isTrusted(request.url())) {
      sent.header("Authorization", "Bearer " + attempt.token());
    }
    // The response carries the request without the token, so nothing up the chain (a caller's
    // logging interceptor, say) can read it back from response.request().
    return chain.proceed(sent.build()).newBuilder().request(request).build();
  }
}
