package io.formation.sdk;

import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.json.Wire;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.JsonResponse;
import io.formation.sdk.internal.transport.Operation;
import io.formation.sdk.internal.transport.Transport;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import okhttp3.HttpUrl;

/**
 * The teams the access token can act on behalf of ({@code GET /v1/teams}, scope {@code
 * documentSets.read}). Reached through {@link FormationClient#teams()}.
 *
 * <pre>{@code
 * for (Team team : client.teams().list().pageSize(100)) {
 *   System.out.println(team.id() + "\t" + team.name());
 * }
 * }</pre>
 */
public final class Teams {
  private final Transport transport;
  private final Origins origins;
  private final RequestOptions options;
  private final HttpUrl first;
  private final Pager<Team> pager;

  Teams(Transport transport, Origins origins, RequestOptions options) {
    this.transport = transport;
    this.origins = origins;
    this.options = options;
    this.first = origins.endpoint("teams");
    this.pager = new Pager<>(transport, this::request, Teams::read, origins, first, false);
  }

  private static Page<Team> read(JsonResponse response) {
    return Wire.teams(response.body());
  }

  private ApiRequest request(HttpUrl url) {
    return ApiRequest.get(url, ApiRequest.JSON_API, options.call())
        .as(Operation.named("Teams.list"));
  }

  /**
   * {@return a view of these teams whose every page is fetched with the given options}
   *
   * @param options the {@link RequestOptions}
   */
  public Teams withOptions(RequestOptions options) {
    return new Teams(transport, origins, Objects.requireNonNull(options, "options"));
  }

  /** {@return a view of these teams whose pages come with the {@link ApiResponse} each came in} */
  public WithResponse withResponse() {
    return new WithResponse();
  }

  /** {@link Teams} whose pages come as {@link ApiResponse}s; see {@link #withResponse()}. */
  public final class WithResponse {
    private WithResponse() {}

    /**
     * One page: the first, or the one a {@code links.next} of an earlier page names.
     *
     * @param link a page's {@code links.next}, used exactly as given; null for the first page
     * @return the page and the response it came in
     * @throws UntrustedOriginException if the link points at an origin the token must not go to
     */
    public ApiResponse<Page<Team>> page(String link) {
      return transport.send(request(url(link)), r -> ApiResponse.of(r, read(r)));
    }

    /**
     * {@return the page and its response, when it arrives; the async twin of {@link #page}}
     *
     * @param link a page's {@code links.next}; null for the first page
     */
    public CompletableFuture<ApiResponse<Page<Team>>> pageAsync(String link) {
      return transport.sendAsync(request(url(link)), r -> ApiResponse.of(r, read(r)));
    }

    private HttpUrl url(String link) {
      return link == null ? first : origins.resolve(link);
    }
  }

  /** {@return a lazy listing of every team, at the service's default page size unless changed} */
  public Pager<Team> list() {
    return pager;
  }
}
