package io.formation.sandbox;

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
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local simulation of the Formation Service, listening on 127.0.0.1, for tests and demos. It
 * serves {@code GET /v1/teams}, {@code POST /v1/document_sets}, {@code GET /v1/document_sets/{id}},
 * {@code GET /v1/document_sets/{id}/forms} and the forms' opaque action urls with JSON:API bodies,
 * validates submitted values with {@link FormValidator}, and moves a document set through its
 * states as the service does: asynchronously, and not always kindly.
 *
 * <pre>{@code
 * try (FormationSandbox sandbox = FormationSandbox.start()) {
 *   FormationClient client =
 *       FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build();
 *   // ... run the code under test against client ...
 *   assertThat(sandbox.requests())
 *       .filteredOn(r -> r.method().equals("POST"))
 *       .hasSize(1);
 * }
 * }</pre>
 *
 * <p>What it does, as the real service may (see {@link SandboxOptions} for each knob):
 *
 * <ul>
 *   <li>Every {@code /v1} request needs {@code Authorization: Bearer <token()>}; anything else gets
 *       401; a set whose access a test took away ({@link #denyAccess}) gets 403. Every API response
 *       has the media type {@code application/vnd.api+json}; errors are JSON:API error documents.
 *       Invalid form values get 422 with one error per {@link Violation}, its {@code
 *       source.pointer} naming the field.
 *   <li>A document set stays {@code input_needed} until every form has accepted values and for a
 *       processing lag after that (1.5 s by default); then it walks through its progression, which
 *       by default includes {@code payment_processing}, a state the interface does not list.
 *   <li>Optionally it goes back to {@code input_needed} once for review, with one form reopened
 *       under a new action url ({@link SandboxOptions#withReview}), and optionally it fails
 *       requests on purpose: 429, 503 and dropped connections ({@link Faults}).
 *   <li>States are computed from {@link SandboxOptions#clock()} when read, so a test clock steps
 *       through all of this without sleeping.
 *   <li>Action urls carry a random token and a signature: build or edit one and it answers 404.
 *       Submitting once input is complete answers 409 {@code input_closed}; the old url of a
 *       reopened form answers 409 {@code stale_action}.
 *   <li>The app link of a document set ({@code /app/document_sets/{id}}) is a small HTML page that
 *       needs no token, as a browser carries none.
 * </ul>
 *
 * <p>A sandbox is thread-safe and serves from daemon threads named {@code formation-sandbox-N}.
 * Close it to stop the server. Unless already set, loading this class sets the system property
 * {@code sun.net.httpserver.nodelay} to {@code true}, which spares every request of a JDK HTTP
 * server a delay of about 40 ms. To run one outside a test, see {@link Standalone}.
 */
public final class FormationSandbox implements AutoCloseable {
  private static final int THREADS = 4;

  static {
    // The JDK server writes a response's headers and body in two segments; with Nagle's algorithm
    // on, the body then waits for the client's delayed ACK, about 40 ms on every request. The JDK
    // reads this property once, when its first server starts; an explicit setting is respected.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final SandboxOptions options;
  private final HttpServer server;
  private final ExecutorService executor;
  private final String baseUrl;
  private final DocumentSets documentSets;
  private final ConcurrentSkipListMap<Long, SandboxRequest> requests =
      new ConcurrentSkipListMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Queue<Thread> threads = new ConcurrentLinkedQueue<>();

  private FormationSandbox(SandboxOptions options) throws IOException {
    this.options = options;
    server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getByName("127.0.0.1"), options.port()), 0);
    baseUrl = "http://127.0.0.1:" + server.getAddress().getPort();
    Secrets secrets = new Secrets();
    documentSets = new DocumentSets(baseUrl, options, secrets);
    Teams teams = new Teams(options.teamCount(), secrets);
    FaultPlan faults = new FaultPlan(options.faults(), options.clock());
    server.createContext(
        "/", new SandboxHandler(options.token(), teams, documentSets, faults, requests));
    executor = Executors.newFixedThreadPool(THREADS, daemonThreads());
    server.setExecutor(executor);
    server.start();
  }

  /** Starts a sandbox with {@link SandboxOptions#defaults()} on a free port. */
  public static FormationSandbox start() {
    return start(SandboxOptions.defaults());
  }

  /**
   * Starts a sandbox with these options.
   *
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static FormationSandbox start(SandboxOptions options) {
    Objects.requireNonNull(options, "options");
    try {
      return new FormationSandbox(options);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the Formation sandbox", e);
    }
  }

  private ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "formation-sandbox-" + count.incrementAndGet());
      // A sandbox somebody forgot to close must not keep a test JVM alive.
      thread.setDaemon(true);
      threads.add(thread);
      return thread;
    };
  }

  /** Returns the base URL, such as {@code http://127.0.0.1:54321}, without a trailing slash. */
  public String baseUrl() {
    return baseUrl;
  }

  /** Returns the bearer token this sandbox accepts. */
  public String token() {
    return options.token();
  }

  /** Returns the options this sandbox was started with. */
  public SandboxOptions options() {
    return options;
  }

  /**
   * Returns every request received so far, in the order they arrived, including rejected and failed
   * ones. A request still being handled is listed once it has been answered (or dropped).
   */
  public List<SandboxRequest> requests() {
    return List.copyOf(requests.values());
  }

  /**
   * Returns a snapshot of a document set as the API would show it now, or empty if this sandbox
   * never created one so named.
   */
  public Optional<SandboxDocumentSet> documentSet(String id) {
    return documentSets.find(id).map(documentSets::snapshot);
  }

  /**
   * Creates a document set whose forms all hold the template's example values, accepted now, as if
   * a client had created it and submitted every form: the processing lag starts at once. For tests
   * that begin where input ends (polling, tracking many sets) without a client making each set's
   * requests. No request is recorded.
   *
   * <pre>{@code
   * String id = sandbox.createSubmitted(SandboxTemplates.DELAWARE_CORPORATION).id();
   * }</pre>
   *
   * @param template a template name from {@link SandboxTemplates#names()}
   * @return a snapshot of the new set
   * @throws IllegalArgumentException if the sandbox has no such template
   */
  public SandboxDocumentSet createSubmitted(String template) {
    Objects.requireNonNull(template, "template");
    if (!DocumentSets.isTemplate(template)) {
      throw new IllegalArgumentException(
          "unknown template " + template + "; known: " + SandboxTemplates.names());
    }
    DocumentSets.Entry set = documentSets.create(template);
    for (SandboxForm form : SandboxTemplates.forms(template)) {
      set.submit(form.id(), form.example());
    }
    return documentSets.snapshot(set);
  }

  /**
   * Takes away, or gives back, the token's access to one document set, as when the partner's access
   * to a team is revoked and restored: while it is away, the set's endpoints and its forms' actions
   * answer {@code 403 forbidden}; the set goes on through its states meanwhile.
   *
   * <pre>{@code
   * sandbox.denyAccess(id, true);    // GET /v1/document_sets/{id} answers 403
   * sandbox.denyAccess(id, false);   // and 200 again
   * }</pre>
   *
   * @param id the id of a document set this sandbox created
   * @param denied whether access is denied from now on
   * @throws IllegalArgumentException if this sandbox created no such set
   */
  public void denyAccess(String id, boolean denied) {
    Objects.requireNonNull(id, "id");
    documentSets
            .find(id)
            .orElseThrow(() -> new IllegalArgumentException("no document set " + id + " here"))
            .accessDenied =
        denied;
  }

  /** Returns snapshots of every document set this sandbox created, oldest first. */
  public List<SandboxDocumentSet> documentSets() {
    return documentSets.all().stream().map(documentSets::snapshot).toList();
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
      // A pool is terminated a moment before its last thread has died; wait for that too, so
      // that "closed" means no thread of this sandbox is left.
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(5));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "FormationSandbox[" + baseUrl + "]";
  }
}
