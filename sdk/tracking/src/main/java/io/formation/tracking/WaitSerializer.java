package io.formation.tracking;

import com.github.kagkarlsson.scheduler.serializer.Serializer;
import java.nio.charset.StandardCharsets;

/**
 * Keeps a tracked set's data as its wait's own compact string, readable in the table and by later
 * versions of the SDK, instead of Java serialization, which ties the bytes to a class's shape.
 */
final class WaitSerializer implements Serializer {
  @Override
  public byte[] serialize(Object data) {
    if (data == null) {
      return null;
    }
    if (!(data instanceof String text)) {
      throw new IllegalArgumentException(
          "formation tracking stores saved waits as strings, not " + data.getClass().getName());
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public <T> T deserialize(Class<T> type, byte[] bytes) {
    if (bytes == null) {
      return null;
    }
    if (!type.isAssignableFrom(String.class)) {
      throw new IllegalArgumentException(
          "formation tracking reads saved waits as strings, not " + type.getName());
    }
    return type.cast(new String(bytes, StandardCharsets.UTF_8));
  }
}
