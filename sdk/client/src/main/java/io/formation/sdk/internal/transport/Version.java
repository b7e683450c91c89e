package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.Port;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The SDK's version, filtered into a resource at build time. */
public final class Version {
  public static final String SDK = load();

  private Version() {}

  private static String load() {
    Properties properties = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw Port.unchecked(e);
    }
  }

  /** {@code formation-java/<sdk> java/<runtime>}, with the caller's product token first. */
  public static String userAgent(String product) {
    String sdk = "formation-java/" + SDK + " java/" + runtime();
    return product == null ? sdk : product + " " + sdk;
  }

  /** Runtime.version() as text, without its stream (docs/building.md). */
  private static String runtime() {
    String version = System.getProperty("java.runtime.version");
    return version != null ? version : Runtime.version().toString();
  }
}
