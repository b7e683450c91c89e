package io.formation.examples.sandbox;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process simulation of the Formation Service, listening on a free port of 127.0.0.1. It
 * serves {@code GET /v1/teams}, {@code POST /v1/document_sets}, {@code GET /v1/document_sets/{id}},
 * {@code GET /v1/document_sets/{id}/forms} and the forms' opaque action urls with JSON:API bodies,
 * validates submitted values against the forms' JSON Schemas, and moves a document set through its
 * states once every form has valid values.
 *
 * <pre>{@code
 * try (Sandbox sandbox = Sandbox.start()) {
 *   // Point the client under test at sandbox.baseUrl() with sandbox.token(), or call it directly:
 *   HttpResponse<String> teams =
 *       HttpClient.newHttpClient()
 *           .send(
 *               HttpRequest.newBuilder(URI.create(sandbox.baseUrl() + "/v1/teams"))
 *                   .header("Authorization", "Bearer " + sandbox.token())
 *                   .build(),
 *               HttpResponse.BodyHandlers.ofString());
 *   assertThat(teams.statusCode()).isEqualTo(200);
 *   assertThat(sandbox.requests()).extracting(RecordedRequest::path).containsExactly("/v1/teams");
 * }
 * }</pre>
 *
 * <p>Behaviour worth knowing:
 *
 * <ul>
 *   <li>Every {@code /v1} request needs {@code Authorization: Bearer <token()>}; anything else gets
 *       401. Errors are JSON:API error documents; every API response has the media type {@code
 *       application/vnd.api+json}.
 *   <li>A document set is {@code input_needed} until each of its forms has accepted values. From
 *       the moment the last form is accepted it is {@code signature_requests_needed}, then {@code
 *       awaiting_payment}, {@code filing_in_progress}, {@code finalizing} and {@code complete}, one
 *       step per {@link SandboxOptions#stepDelay()}. States are computed from {@link
 *       SandboxOptions#clock()} when read, so a test clock steps through them without sleeping.
 *   <li>Submitting values once input is complete gets 409; invalid values get 422 with one error
 *       per violation, each pointing at the field with {@code source.pointer}.
 *   <li>The app link of a document set ({@code /app/document_sets/{id}}) is a small HTML page that
 *       needs no token, as a browser carries none.
 * </ul>
 *
 * <p>A sandbox is thread-safe. Close it to stop the server and its threads. Unless already set,
 * loading this class sets the system property {@code sun.net.httpserver.nodelay} to {@code true},
 * which spares every request of a JDK HTTP server a delay of about 40 ms.
 */
public final class Sandbox implements AutoCloseable {
  private static final int THREADS = 4;

  static {
    // The JDK server writes a response's headers and body in two segments; with Nagle's algorithm
    // on, the body then waits for the client's delayed ACK, about 40 ms on every request. The JDK
    // reads this property once, when its first server starts; an explicit setting is respected.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final String baseUrl;
  private final String token;
  private final DocumentSets documentSets;
  private final Queue<RecordedRequest> requests = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  private Sandbox(SandboxOptions options) throws IOException {
    token = options.token();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
    baseUrl = "http://127.0.0.1:" + server.getAddress().getPort();
    Secrets secrets = new Secrets();
    documentSets = new DocumentSets(baseUrl, options.clock(), options.stepDelay(), secrets);
    Teams teams = new Teams(options.teamCount(), secrets);
    server.createContext("/", new SandboxHandler(token, teams, documentSets, requests));
    executor = Executors.newFixedThreadPool(THREADS, daemonThreads());
    server.setExecutor(executor);
    server.start();
  }

  /** Starts a sandbox with {@link SandboxOptions#defaults()}. */
  public static Sandbox start() {
    return start(SandboxOptions.defaults());
  }

  /**
   * Starts a sandbox with these options.
   *
   * @throws UncheckedIOException if no local port can be bound
   */
  public static Sandbox start(SandboxOptions options) {
    Objects.requireNonNull(options, "options");
    try {
      return new Sandbox(options);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the Formation sandbox", e);
    }
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "formation-sandbox-" + count.incrementAndGet());
      // A sandbox somebody forgot to close must not keep a test JVM or a CLI alive.
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Returns the base URL, such as {@code http://127.0.0.1:54321}, without a trailing slash. */
  public String baseUrl() {
    return baseUrl;
  }

  /** Returns the bearer token this sandbox accepts. */
  public String token() {
    return token;
  }

  /** Returns every request received so far, oldest first, including rejected ones. */
  public List<RecordedRequest> requests() {
    return List.copyOf(requests);
  }

  /** Returns a snapshot of a document set, or empty if this sandbox never created one so named. */
  public Optional<SandboxDocumentSet> documentSet(String id) {
    return documentSets.find(id).map(documentSets::snapshot);
  }

  /** Stops the server at once, dropping exchanges in flight, and ends its threads. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "Sandbox[" + baseUrl + "]";
  }
}
