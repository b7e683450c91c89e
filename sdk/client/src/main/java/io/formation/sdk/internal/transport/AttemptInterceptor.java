package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.guards.Compatibility;
import io.formation.sdk.internal.limits.Throttle;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.Response;

/** Once per attempt, on its own thread: the pause check, the token, stack failures. */
record AttemptInterceptor(
    Map<Call, Attempt> attempts, Throttle throttle, Supplier<String> tokens, Port port)
    implements Interceptor {
  @Override
  public Response intercept(Chain chain) throws IOException {
    Attempt attempt = attempts.get(chain.call());
    // Only the SDK's attempts carry a token; the guard below holds for every request.
    if (attempt != null) {
      if (throttle.leaving(chain.request().url())) {
        throw new Throttle.PausedBeforeSending();
      }
      attempt.token = token();
    }
    try {
      return chain.proceed(chain.request());
    } catch (RuntimeException e) {
      throw FinalFailure.ofStack(port, e);
    } catch (LinkageError e) {
      throw new FinalFailure(port.failure(Compatibility.explain(e), e));
    }
  }

  private String token() throws FinalFailure {
    String token;
    try {
      token = tokens.get();
    } catch (RuntimeException e) {
      throw new FinalFailure(port.failure("The token provider failed: " + e.getMessage(), e));
    }
    if (token == null || token.isBlank()) {
      throw new FinalFailure(port.failure("The token provider returned no access token", null));
    }
    int bad = Checks.invalidHeaderCharAt(token);
    if (bad >= 0) {
      throw new FinalFailure(
          port.failure(
              "The token provider returned a token with a character not allowed in a header (at"
                  + " index "
                  + bad
                  + "); nothing was sent",
              null));
    }
    return token;
  }
}
