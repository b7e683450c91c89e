package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.JsonResponse;
import io.formation.sdk.internal.transport.Transport;
import io.formation.sdk.model.Page;
import java.util.Collections;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import okhttp3.HttpUrl;

/**
 * A lazy listing that pages through a collection by following each page's {@code links.next}
 * exactly as the service returned it. Nothing is fetched until iteration needs it, and only one
 * page is held at a time, so any number of items can be streamed in constant memory. Each iteration
 * starts a fresh listing. Immutable and thread-safe; iterators are not.
 *
 * <pre>{@code
 * client.teams().list().pageSize(100).stream()
 *     .filter(team -> team.name().startsWith("Acme"))
 *     .forEach(team -> System.out.println(team.id()));
 *
 * // Stop and resume later from the saved link:
 * String saved = page.links().next().orElseThrow();
 * for (Team team : client.teams().list().startingAt(saved)) { ... }
 * }</pre>
 *
 * @param <T> the item type
 */
public final class Pager<T> implements Iterable<T> {
  /** Smallest page size the service accepts. */
  public static final int MIN_PAGE_SIZE = 1;

  /** Largest page size the service accepts. */
  public static final int MAX_PAGE_SIZE = 100;

  private final Transport transport;
  private final Function<HttpUrl, ApiRequest> request;
  private final Function<JsonResponse, Page<T>> reader;
  private final Origins origins;
  private final HttpUrl start;
  private final boolean resumed;

  /** A listing from {@code start}, whose page size is its own when {@code resumed}. */
  Pager(
      Transport transport,
      Function<HttpUrl, ApiRequest> request,
      Function<JsonResponse, Page<T>> reader,
      Origins origins,
      HttpUrl start,
      boolean resumed) {
    this.transport = transport;
    this.request = request;
    this.reader = reader;
    this.origins = origins;
    this.start = start;
    this.resumed = resumed;
  }

  /**
   * {@return a listing with this many items per page (the service's default is 50)}
   *
   * @param size items per page, 1 to 100
   * @throws IllegalArgumentException if size is outside 1..100
   * @throws IllegalStateException if the listing resumes from a saved link, which has its own size
   */
  public Pager<T> pageSize(int size) {
    if (size < MIN_PAGE_SIZE || size > MAX_PAGE_SIZE) {
      throw Port.invalid(
          "page size must be between " + MIN_PAGE_SIZE + " and " + MAX_PAGE_SIZE + ", was " + size);
    }
    if (resumed) {
      throw Port.illegalState("a listing resumed from a link keeps that link's page size");
    }
    HttpUrl sized = start.newBuilder().setQueryParameter("page[size]", "" + size).build();
    return new Pager<>(transport, request, reader, origins, sized, false);
  }

  /**
   * {@return a listing that starts at a saved {@code next} link, used exactly as given, instead of
   * the first page, so a job can stop and continue later}
   *
   * @param link a {@code next} link saved from an earlier page
   * @throws UntrustedOriginException if the link points at an origin the token must not go to
   * @throws IllegalArgumentException if the link is not a URL reference
   */
  public Pager<T> startingAt(String link) {
    if (link == null || link.isBlank()) {
      throw Port.invalid("link must not be blank");
    }
    return new Pager<>(transport, request, reader, origins, origins.resolve(link), true);
  }

  /** The items, fetching pages as iteration reaches them. */
  @Override
  public Iterator<T> iterator() {
    Iterator<Page<T>> pages = new PageIterator();
    return new Iterator<>() {
      private Iterator<T> items = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!items.hasNext() && pages.hasNext()) {
          items = pages.next().items().iterator();
        }
        return items.hasNext();
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw Port.noMoreElements();
        }
        return items.next();
      }
    };
  }

  /** {@return the items as a lazy sequential stream} */
  public Stream<T> stream() {
    return StreamSupport.stream(spliterator(), false);
  }

  /** {@return the pages, each with its items and links, fetched as iteration reaches them} */
  public Iterable<Page<T>> pages() {
    return PageIterator::new;
  }

  /** {@return the first page (or the saved link's page), fetched without blocking} */
  public CompletableFuture<Page<T>> firstPageAsync() {
    return fetchAsync(start);
  }

  /**
   * {@return the page after the given one, fetched without blocking; empty after the last}
   *
   * @param page a page of this listing
   * @throws UntrustedOriginException if its next link points at an untrusted origin
   */
  public CompletableFuture<Optional<Page<T>>> nextPageAsync(Page<T> page) {
    Optional<String> next = page.links().next();
    if (next.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return fetchAsync(origins.resolve(next.get())).thenApply(Optional::of);
  }

  private CompletableFuture<Page<T>> fetchAsync(HttpUrl url) {
    return transport.sendAsync(request.apply(url), reader);
  }

  /**
   * Follows next links, resolving each only when its page is wanted, so a refused link fails the
   * step that needs it and not the page that carried it. A cycle of next links is caught in
   * constant memory by Brent's method: each link is compared with one saved after 2^k pages.
   */
  private final class PageIterator implements Iterator<Page<T>> {
    private HttpUrl first = start;
    private String nextLink;
    private String saved;
    private long power = 1;
    private long sinceSaved;

    @Override
    public boolean hasNext() {
      return first != null || nextLink != null;
    }

    @Override
    public Page<T> next() {
      if (!hasNext()) {
        throw Port.noMoreElements();
      }
      HttpUrl url = first != null ? first : origins.resolve(nextLink);
      first = null;
      nextLink = null;
      String link = url.toString();
      if (link.equals(saved)) {
        throw Exceptions.invalidResponse(
            "The service's next link repeats a page already visited (" + link + "): stopping",
            200,
            "");
      }
      if (++sinceSaved == power) {
        saved = link;
        power *= 2;
        sinceSaved = 0;
      }
      Page<T> page = transport.send(request.apply(url), reader);
      nextLink = page.links().next().orElse(null);
      return page;
    }
  }
}
