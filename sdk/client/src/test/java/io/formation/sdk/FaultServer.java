package io.formation.sdk;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.zip.GZIPOutputStream;
import okhttp3.Headers;

/**
 * A raw HTTP/1.1 server on a real loopback socket that misbehaves on purpose: it drops, resets,
 * trickles, floods and stalls where mockwebserver3 would answer politely. Each request it reads is
 * answered by the next {@link Fault} of its script (or the {@link #otherwise} fault when the script
 * is empty), and a custom {@link Script} can decide instead.
 *
 * <pre>{@code
 * try (FaultServer server = new FaultServer()) {
 *   server.enqueue(Fault.json(200, body).thenCloseIdle());
 *   server.enqueue(Fault.resetAfterRequest());
 *   ... client with baseUrl server.url() ...
 *   assertThat(server.requests()).hasSize(2);
 * }
 * }</pre>
 *
 * Everything is bounded: a thread per connection (daemon), each socket read times out after {@link
 * #IO_BOUND}, floods stop at {@link #FLOOD_CAP} bytes, and {@link #close()} ends every connection
 * and thread.
 */
final class FaultServer implements AutoCloseable {
  /** The longest any socket operation of the server blocks. */
  static final Duration IO_BOUND = Duration.ofSeconds(30);

  /** The most bytes an endless body sends before it gives up and ends. */
  static final long FLOOD_CAP = 32L << 20;

  private static final int MAX_CONNECTIONS = 5_000;
  private static final int MAX_REQUESTS_PER_CONNECTION = 1_000;
  private static final int MAX_HEAD_BYTES = 64 << 10;
  private static final int MAX_BODY_BYTES = 8 << 20;
  private static final Duration STALE_AFTER = Duration.ofMillis(20);

  private final ServerSocket listener;
  private final Thread acceptor;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final Deque<Fault> script = new ConcurrentLinkedDeque<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger peerCloses = new AtomicInteger();
  private final AtomicInteger idleCloses = new AtomicInteger();
  private final Object events = new Object();
  private volatile Fault otherwise = Fault.json(404, "{\"errors\":[{\"detail\":\"unscripted\"}]}");
  private volatile Script custom;
  private volatile boolean closed;

  /** Starts listening on a free port of 127.0.0.1. */
  FaultServer() throws IOException {
    listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    acceptor = new Thread(this::acceptLoop, "fault-server-accept-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Decides each connection and request itself, instead of the queue. */
  interface Script {
    /** Called for each new connection before anything is read: a drop fault, or null. */
    Fault onAccept(int connection);

    /** The fault that answers a request just read in full. */
    Fault onRequest(Recorded request);
  }

  /** One request the server read in full. */
  record Recorded(int connection, String method, String target, Headers headers, byte[] body) {
    String bodyUtf8() {
      return new String(body, StandardCharsets.UTF_8);
    }

    String path() {
      int query = target.indexOf('?');
      return query < 0 ? target : target.substring(0, query);
    }
  }

  int port() {
    return listener.getLocalPort();
  }

  /** The server's root, {@code http://127.0.0.1:<port>/}. */
  String url() {
    return "http://127.0.0.1:" + port() + "/";
  }

  /** Scripts the next request (or, for a drop fault, the next connection). */
  FaultServer enqueue(Fault fault) {
    script.add(fault);
    return this;
  }

  /** Answers every request the script has nothing left for. */
  FaultServer otherwise(Fault fault) {
    this.otherwise = fault;
    return this;
  }

  /** Replaces the queue with a script of the caller's. */
  FaultServer script(Script script) {
    this.custom = script;
    return this;
  }

  /** Every request read in full so far, in order. */
  List<Recorded> requests() {
    return List.copyOf(requests);
  }

  /** How many connections were accepted. */
  int connectionCount() {
    return connections.get();
  }

  /** Waits until at least n requests were read; false if the bound passed first. */
  boolean awaitRequests(int n, Duration bound) throws InterruptedException {
    return await(requests::size, n, bound);
  }

  /** Waits until the client closed at least n connections the server was holding. */
  boolean awaitPeerCloses(int n, Duration bound) throws InterruptedException {
    return await(peerCloses::get, n, bound);
  }

  /** Waits until the server closed at least n idle kept-alive connections (stale ones). */
  boolean awaitIdleCloses(int n, Duration bound) throws InterruptedException {
    return await(idleCloses::get, n, bound);
  }

  private boolean await(IntSupplier count, int n, Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    synchronized (events) {
      while (count.getAsInt() < n) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(events, left);
      }
      return true;
    }
  }

  private void signal() {
    synchronized (events) {
      events.notifyAll();
    }
  }

  /** Stops listening, ends every connection and waits (boundedly) for its threads. */
  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException ignored) {
      // Closing is all that is wanted.
    }
    sockets.forEach(FaultServer::closeQuietly);
    threads.forEach(Thread::interrupt);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    for (Thread thread : threads) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left > 0) {
        try {
          thread.join(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private void acceptLoop() {
    for (int n = 1; n <= MAX_CONNECTIONS && !closed; n++) {
      Socket socket;
      try {
        socket = listener.accept();
      } catch (IOException e) {
        return;
      }
      int id = n;
      connections.incrementAndGet();
      sockets.add(socket);
      Thread thread = new Thread(() -> serve(socket, id), "fault-server-" + port() + "-" + id);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  private Fault onAccept(int connection) {
    Script own = custom;
    if (own != null) {
      return own.onAccept(connection);
    }
    Fault next = script.peek();
    return next instanceof Fault.Drop && script.remove(next) ? next : null;
  }

  private Fault onRequest(Recorded request) {
    Script own = custom;
    if (own != null) {
      return own.onRequest(request);
    }
    Fault next = script.poll();
    return next != null ? next : otherwise;
  }

  private void serve(Socket socket, int connection) {
    try {
      socket.setSoTimeout((int) IO_BOUND.toMillis());
      socket.setTcpNoDelay(true);
      Fault drop = onAccept(connection);
      if (drop instanceof Fault.Drop d) {
        hangUp(socket, d.reset());
        return;
      }
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      for (int n = 0; n < MAX_REQUESTS_PER_CONNECTION && !closed; n++) {
        Recorded request = readRequest(in, connection);
        if (request == null) {
          return;
        }
        requests.add(request);
        signal();
        if (!answer(onRequest(request), socket, in, out)) {
          return;
        }
      }
    } catch (IOException | RuntimeException e) {
      // The peer went away, a bound ran out, or the server closed: the end of this connection.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(socket);
      sockets.remove(socket);
      signal();
    }
  }

  /** Plays a fault; true to keep reading requests on this connection. */
  private boolean answer(Fault fault, Socket socket, InputStream in, OutputStream out)
      throws IOException, InterruptedException {
    if (fault instanceof Fault.Answer a) {
      writeHead(out, a.status(), a.headers(), a.body().length, a.after() == After.CLOSE);
      out.write(a.body());
      out.flush();
      if (a.after() == After.CLOSE_IDLE_SOON || a.after() == After.RESET_IDLE_SOON) {
        Thread.sleep(STALE_AFTER.toMillis());
        hangUp(socket, a.after() == After.RESET_IDLE_SOON);
        idleCloses.incrementAndGet();
        return false;
      }
      return a.after() == After.KEEP_ALIVE;
    }
    if (fault instanceof Fault.Raw r) {
      out.write(r.bytes());
      out.flush();
      return false;
    }
    if (fault instanceof Fault.Drop d) {
      // A drop that comes up for a request on a kept-alive connection: close without answering.
      hangUp(socket, d.reset());
      return false;
    }
    if (fault instanceof Fault.HangUp h) {
      hangUp(socket, h.reset());
      return false;
    }
    if (fault instanceof Fault.Hold) {
      holdUntilPeerCloses(in);
      return false;
    }
    if (fault instanceof Fault.Trickle t) {
      writeHead(out, t.status(), t.headers(), t.body().length, true);
      out.flush();
      for (byte b : t.body()) {
        Thread.sleep(t.interval().toMillis());
        out.write(b);
        out.flush();
      }
      return false;
    }
    if (fault instanceof Fault.Flood f) {
      flood(out, f);
      return false;
    }
    throw new IllegalArgumentException("Unknown fault " + fault);
  }

  /** Blocks reading until the client closes the connection (or a bound runs out). */
  private void holdUntilPeerCloses(InputStream in) throws IOException {
    long deadline = System.nanoTime() + IO_BOUND.toNanos();
    byte[] sink = new byte[1024];
    while (!closed && System.nanoTime() < deadline) {
      int read;
      try {
        read = in.read(sink);
      } catch (SocketException reset) {
        read = -1;
      }
      if (read < 0) {
        if (!closed) {
          peerCloses.incrementAndGet();
        }
        return;
      }
    }
  }

  private void flood(OutputStream out, Fault.Flood f) throws IOException {
    long total = f.prefix().length + FLOOD_CAP;
    List<String> headers = new ArrayList<>(f.headers());
    if (f.chunked()) {
      headers.add("Transfer-Encoding: chunked");
      writeHead(out, f.status(), headers, -1, true);
    } else {
      writeHead(out, f.status(), headers, total, true);
    }
    byte[] filler = new byte[16 << 10];
    Arrays.fill(filler, (byte) ' ');
    writePart(out, f.prefix(), f.chunked());
    for (long sent = f.prefix().length; sent < total && !closed; sent += filler.length) {
      writePart(out, filler, f.chunked());
    }
    if (f.chunked()) {
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    out.flush();
  }

  private static void writePart(OutputStream out, byte[] bytes, boolean chunked)
      throws IOException {
    if (chunked) {
      out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    } else {
      out.write(bytes);
    }
  }

  /** Writes the status line and headers; a length of -1 leaves Content-Length out. */
  private static void writeHead(
      OutputStream out, int status, List<String> headers, long length, boolean close)
      throws IOException {
    StringBuilder head = new StringBuilder();
    head.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
    boolean hasLength = false;
    for (String header : headers) {
      head.append(header).append("\r\n");
      hasLength |= header.toLowerCase(Locale.ROOT).startsWith("content-length:");
    }
    if (length >= 0 && !hasLength) {
      head.append("Content-Length: ").append(length).append("\r\n");
    }
    if (close) {
      head.append("Connection: close\r\n");
    }
    head.append("\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 201 -> "Created";
      case 400 -> "Bad Request";
      case 429 -> "Too Many Requests";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      default -> "Status";
    };
  }

  /** Reads one request; null if the peer closed the connection before sending a byte of it. */
  private static Recorded readRequest(InputStream in, int connection) throws IOException {
    String requestLine = readLine(in, true);
    if (requestLine == null) {
      return null;
    }
    String[] parts = requestLine.split(" ", 3);
    if (parts.length != 3) {
      throw new IOException("Malformed request line");
    }
    Headers.Builder headers = new Headers.Builder();
    int headBytes = requestLine.length();
    for (String line = readLine(in, false); !line.isEmpty(); line = readLine(in, false)) {
      headBytes += line.length();
      if (headBytes > MAX_HEAD_BYTES) {
        throw new IOException("Request head too large");
      }
      headers.addUnsafeNonAscii(
          line.substring(0, line.indexOf(':')).strip(),
          line.substring(line.indexOf(':') + 1).strip());
    }
    Headers built = headers.build();
    byte[] body;
    String length = built.get("Content-Length");
    if ("chunked".equalsIgnoreCase(built.get("Transfer-Encoding"))) {
      body = readChunked(in);
    } else if (length != null) {
      long n = Long.parseLong(length.strip());
      if (n < 0 || n > MAX_BODY_BYTES) {
        throw new IOException("Request body too large");
      }
      body = in.readNBytes((int) n);
      if (body.length != n) {
        throw new IOException("Request body cut short");
      }
    } else {
      body = new byte[0];
    }
    return new Recorded(connection, parts[0], parts[1], built, body);
  }

  private static byte[] readChunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int n = 0; n < MAX_BODY_BYTES; n++) {
      String sizeLine = readLine(in, false);
      int semicolon = sizeLine.indexOf(';');
      int size =
          Integer.parseInt(
              (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip(), 16);
      if (size == 0) {
        while (!readLine(in, false).isEmpty()) {
          // Trailers are read and dropped.
        }
        return body.toByteArray();
      }
      if (body.size() + size > MAX_BODY_BYTES) {
        throw new IOException("Request body too large");
      }
      byte[] chunk = in.readNBytes(size);
      if (chunk.length != size) {
        throw new IOException("Request body cut short");
      }
      body.write(chunk);
      readLine(in, false);
    }
    throw new IOException("Too many chunks");
  }

  /** A CRLF-terminated line; null at a clean end of stream if allowed, else an IOException. */
  private static String readLine(InputStream in, boolean endAllowed) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int n = 0; n < MAX_HEAD_BYTES; n++) {
      int c = in.read();
      if (c < 0) {
        if (endAllowed && line.length() == 0) {
          return null;
        }
        throw new IOException("Connection closed in the middle of a request");
      }
      if (c == '\n') {
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r'
            ? line.substring(0, end - 1)
            : line.toString();
      }
      line.append((char) c);
    }
    throw new IOException("Line too long");
  }

  /** Closes the socket; with a reset, SO_LINGER 0 makes the close send an RST instead of a FIN. */
  private static void hangUp(Socket socket, boolean reset) {
    if (reset) {
      try {
        socket.setSoLinger(true, 0);
      } catch (SocketException ignored) {
        // Already closed: nothing left to reset.
      }
    }
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing is all that is wanted.
    }
  }

  /** What the connection does once an answer is written. */
  enum After {
    KEEP_ALIVE,
    CLOSE,
    /** Keep-alive headers, then the server closes the idle connection a moment later. */
    CLOSE_IDLE_SOON,
    /** The same, but the close is a reset (RST). */
    RESET_IDLE_SOON
  }

  /** One scripted behaviour: how a connection or a request is (mis)handled. */
  sealed interface Fault {
    /** A JSON answer, kept alive. */
    static Answer json(int status, String body) {
      return new Answer(status, JSON_HEAD, utf8(body), After.KEEP_ALIVE);
    }

    /** The head of every JSON fault. */
    List<String> JSON_HEAD = List.of("Content-Type: application/json");

    private static byte[] utf8(String text) {
      return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A body compressed small that inflates to {@code prefix} plus {@code padding} spaces. */
    static Answer gzipBomb(int status, String prefix, int padding) {
      ByteArrayOutputStream compressed = new ByteArrayOutputStream();
      try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
        gzip.write(prefix.getBytes(StandardCharsets.UTF_8));
        byte[] spaces = new byte[64 << 10];
        Arrays.fill(spaces, (byte) ' ');
        for (int left = padding; left > 0; left -= spaces.length) {
          gzip.write(spaces, 0, Math.min(left, spaces.length));
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      return new Answer(
          status,
          List.of("Content-Type: application/json", "Content-Encoding: gzip"),
          compressed.toByteArray(),
          After.CLOSE);
    }

    /** Writes these bytes as the whole answer, status line included, then closes. */
    static Raw raw(String answer) {
      return new Raw(answer.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Closes a new connection at once, before reading anything (FIN, or RST with reset). */
    static Drop dropOnAccept(boolean reset) {
      return new Drop(reset);
    }

    /** Reads the whole request, then closes without answering (FIN, or RST with reset). */
    static HangUp hangUpAfterRequest(boolean reset) {
      return new HangUp(reset);
    }

    /** Reads the request and never answers, until the client gives up. */
    static Hold hold() {
      return new Hold();
    }

    /** Sends the head at once, then the body one byte per interval. */
    static Trickle trickle(int status, String body, Duration interval) {
      return new Trickle(status, JSON_HEAD, utf8(body), interval);
    }

    /**
     * A body that goes on and on ({@link #FLOOD_CAP} bytes of spaces after the prefix): chunked, or
     * with the whole length declared up front.
     */
    static Flood flood(int status, String prefix, boolean chunked) {
      return new Flood(status, JSON_HEAD, utf8(prefix), chunked);
    }

    record Answer(int status, List<String> headers, byte[] body, After after) implements Fault {
      Answer withHeader(String name, String value) {
        List<String> more = new ArrayList<>(headers);
        more.add(name + ": " + value);
        return new Answer(status, List.copyOf(more), body, after);
      }

      Answer then(After next) {
        return new Answer(status, headers, body, next);
      }

      /** The answer, then the idle connection closed a moment later: a stale pooled one. */
      Answer thenCloseIdle() {
        return then(After.CLOSE_IDLE_SOON);
      }
    }

    record Raw(byte[] bytes) implements Fault {}

    record Drop(boolean reset) implements Fault {}

    record HangUp(boolean reset) implements Fault {}

    record Hold() implements Fault {}

    record Trickle(int status, List<String> headers, byte[] body, Duration interval)
        implements Fault {}

    record Flood(int status, List<String> headers, byte[] prefix, boolean chunked)
        implements Fault {}
  }
}
