package io.formation.tracking;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** What a test opened (sandboxes, clients, trackers), closed after it, last opened first. */
final class Closing implements AfterEachCallback {
  private final List<AutoCloseable> opened = new ArrayList<>();

  <T extends AutoCloseable> T add(T closeable) {
    opened.add(closeable);
    return closeable;
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    opened.clear();
  }
}
