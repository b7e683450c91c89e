package io.formation.spring.autoconfigure;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * Jackson 2 (Spring Boot 3.5): the SDK's models written as {@link ModelJson} says. Jackson 2 writes
 * the SDK's trees as they are already.
 */
final class Jackson2Models extends SimpleModule {
  private static final long serialVersionUID = 1L;

  Jackson2Models() {
    super("formation-sdk-models");
    for (Class<?> type : ModelJson.TYPES) {
      add(type);
    }
  }

  private <T> void add(Class<T> type) {
    addSerializer(type, new Writer<>(type));
  }

  private static final class Writer<T> extends StdSerializer<T> {
    private static final long serialVersionUID = 1L;

    Writer(Class<T> type) {
      super(type);
    }

    @Override
    public void serialize(T model, JsonGenerator generator, SerializerProvider provider)
        throws IOException {
      generator.writeTree(ModelJson.of(model));
    }
  }
}
