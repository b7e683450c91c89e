package io.formation.examples.web;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Calls the application as its page does, with a cookie jar of its own (one browser session), and
 * keeps everything it received so a test can inspect it.
 */
final class PageClient {
  /** One response as the browser saw it: status, every header line and the body. */
  record Received(int status, List<String> headers, String body) {}

  /** One server-sent event. */
  record Event(String name, String data) {}

  private final HttpClient http;
  private final String origin;
  private final List<Received> received = new CopyOnWriteArrayList<>();

  PageClient(int port) {
    this(port, new CookieManager());
  }

  /**
   * A page on this port with the given cookie jar: two pages sharing one jar are one person whose
   * requests reach different instances, as behind a load balancer.
   */
  PageClient(int port, CookieManager cookies) {
    this.origin = "http://localhost:" + port;
    this.http = HttpClient.newBuilder().cookieHandler(cookies).build();
  }

  Received get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).header("Accept", "application/json").GET());
  }

  Received postJson(String path, String json) {
    return post(path, "application/json", json);
  }

  Received post(String path, String contentType, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(path))
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return send(request);
  }

  Received send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return keep(response, response.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Opens the event stream of a document set; read it with {@link Events#next()}. */
  Events events(String id) {
    try {
      HttpResponse<Stream<String>> response =
          http.send(
              HttpRequest.newBuilder(uri("/api/formations/" + id + "/events"))
                  .header("Accept", "text/event-stream")
                  .build(),
              HttpResponse.BodyHandlers.ofLines());
      return new Events(response);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Everything received so far, event streams included as far as they were read. */
  List<Received> received() {
    return List.copyOf(received);
  }

  private URI uri(String path) {
    return URI.create(origin + path);
  }

  private Received keep(HttpResponse<?> response, String body) {
    List<String> headers = new ArrayList<>();
    response
        .headers()
        .map()
        .forEach((name, values) -> values.forEach(v -> headers.add(name + ": " + v)));
    Received kept = new Received(response.statusCode(), headers, body);
    received.add(kept);
    return kept;
  }

  /** The events of one stream, read as they arrive. */
  final class Events implements AutoCloseable {
    private final HttpResponse<Stream<String>> response;
    private final Iterator<String> lines;
    private final StringBuilder text = new StringBuilder();

    private Events(HttpResponse<Stream<String>> response) {
      this.response = response;
      this.lines = response.body().iterator();
    }

    int status() {
      return response.statusCode();
    }

    String contentType() {
      return response.headers().firstValue("Content-Type").orElse("");
    }

    /** The next event; blocks until it arrives. */
    Event next() {
      String name = "message";
      StringBuilder data = new StringBuilder();
      while (lines.hasNext()) {
        String line = lines.next();
        text.append(line).append('\n');
        if (line.isEmpty()) {
          if (data.length() > 0) {
            return new Event(name, data.toString());
          }
        } else if (line.startsWith("event:")) {
          name = line.substring("event:".length()).strip();
        } else if (line.startsWith("data:")) {
          data.append(line.substring("data:".length()));
        }
      }
      throw new IllegalStateException("The stream ended; it said:\n" + text);
    }

    @Override
    public void close() {
      keep(response, text.toString());
      response.body().close();
    }
  }
}
