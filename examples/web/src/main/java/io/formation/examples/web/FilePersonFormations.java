package io.formation.examples.web;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * A person's formations in one JSON file, written whole on every change (a new file moved over the
 * old one, so a crash leaves the old or the new, never half), and read at startup: they survive a
 * restart of the backend. Good for one instance and a few thousand people; several instances need a
 * database, which is what tracking brings.
 */
@Component
final class FilePersonFormations implements PersonFormations {
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .build();
  private static final TypeReference<Map<String, List<Started>>> SHAPE = new TypeReference<>() {};

  private final Path file;
  private final Map<String, List<Started>> byPerson;

  FilePersonFormations(@Value("${formation-web.store:formation-web-store.json}") Path file) {
    this.file = file.toAbsolutePath();
    this.byPerson = read(this.file);
  }

  @Override
  public synchronized List<Started> of(Person person) {
    return List.copyOf(byPerson.getOrDefault(person.id(), List.of()));
  }

  @Override
  public synchronized void remember(Person person, Started started) {
    List<Started> list = new ArrayList<>(byPerson.getOrDefault(person.id(), List.of()));
    list.add(0, started);
    byPerson.put(person.id(), List.copyOf(list));
    write();
  }

  @Override
  public synchronized void seen(Person person, String id, String state) {
    List<Started> list = byPerson.getOrDefault(person.id(), List.of());
    if (list.stream().noneMatch(s -> s.id().equals(id) && !state.equals(s.lastState()))) {
      return;
    }
    byPerson.put(
        person.id(),
        list.stream().map(s -> s.id().equals(id) ? s.withLastState(state) : s).toList());
    write();
  }

  private static Map<String, List<Started>> read(Path file) {
    if (!Files.exists(file)) {
      return new HashMap<>();
    }
    try {
      return new HashMap<>(JSON.readValue(file.toFile(), SHAPE));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the formations kept in " + file, e);
    }
  }

  private void write() {
    try {
      Path parent = file.getParent();
      Files.createDirectories(parent);
      Path next = Files.createTempFile(parent, file.getFileName().toString(), ".next");
      JSON.writeValue(next.toFile(), byPerson);
      Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot keep the formations in " + file, e);
    }
  }
}
