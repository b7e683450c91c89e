package io.formation.sandbox;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

/** The teams of a sandbox and their keyset pagination. */
final class Teams {
  static final String PAGE_SIZE = "page[size]";
  static final String PAGE_AFTER = "page[after]";
  static final int DEFAULT_PAGE_SIZE = 50;
  static final int MAX_PAGE_SIZE = 100;

  private static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");
  private static final String CURSOR_VERSION = "t1";

  private static final List<String> FIRST =
      List.of(
          ("Acme Bluebird Northwind Granite Copperleaf Lighthouse Silverline Redwood Harbor Summit"
                  + " Maple Orchard Cobalt Juniper Falcon Meridian Tidewater Evergreen Quarry"
                  + " Sparrow Beacon Ironbridge Willow Cedar")
              .split(" "));
  private static final List<String> SECOND =
      List.of(
          ("Labs Robotics Ventures Health Analytics Foods Energy Studios Logistics Bio Software"
                  + " Capital")
              .split(" "));

  record Team(String id, String name) {}

  private final List<Team> teams;
  private final List<String> ids;
  private final Secrets secrets;

  Teams(int count, Secrets secrets) {
    this.secrets = secrets;
    this.teams = generate(count);
    this.ids = teams.stream().map(Team::id).toList();
  }

  // Seeded, so every sandbox lists the same teams and tests can name them.
  private static List<Team> generate(int count) {
    Random random = new Random(20_240_917L);
    List<String> names = new ArrayList<>();
    for (String first : FIRST) {
      for (String second : SECOND) {
        names.add(first + " " + second);
      }
    }
    Collections.shuffle(names, random);
    Set<String> ids = new HashSet<>();
    List<Team> teams = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String name = names.get(i % names.size());
      int round = i / names.size();
      String id;
      do {
        id = randomId(random);
      } while (!ids.add(id));
      teams.add(new Team(id, round == 0 ? name : name + " " + (round + 1)));
    }
    // Keyset order: the cursor names the last id seen and the next page starts after it.
    teams.sort(Comparator.comparing(Team::id));
    return List.copyOf(teams);
  }

  private static String randomId(Random random) {
    String alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
    StringBuilder id = new StringBuilder("team_");
    for (int i = 0; i < 12; i++) {
      id.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return id.toString();
  }

  List<Team> all() {
    return teams;
  }

  /** Renders the page that the query asks for. */
  ObjectNode page(Map<String, List<String>> query) {
    int size = pageSize(query);
    int start = startIndex(query);
    int end = Math.min(start + size, teams.size());

    ObjectNode document = Json.object();
    ArrayNode data = document.putArray("data");
    for (Team team : teams.subList(start, end)) {
      ObjectNode resource = data.addObject();
      resource.put("type", "teams");
      resource.put("id", team.id());
      resource.putObject("attributes").put("name", team.name());
    }
    ObjectNode links = document.putObject("links");
    links.put("self", afterIndex(size, start));
    links.put("first", link(size, null));
    links.put("prev", start == 0 ? null : afterIndex(size, Math.max(0, start - size)));
    links.put("next", end < teams.size() ? afterIndex(size, end) : null);
    int lastStart = teams.isEmpty() ? 0 : ((teams.size() - 1) / size) * size;
    links.put("last", afterIndex(size, lastStart));
    return document;
  }

  /** Returns the link to the page that starts at {@code index}. */
  private String afterIndex(int size, int index) {
    return index == 0 ? link(size, null) : link(size, cursor(teams.get(index - 1).id()));
  }

  private static String link(int size, String cursor) {
    StringBuilder link =
        new StringBuilder("/v1/teams?").append(encode(PAGE_SIZE)).append('=').append(size);
    if (cursor != null) {
      link.append('&').append(encode(PAGE_AFTER)).append('=').append(encode(cursor));
    }
    return link.toString();
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static int pageSize(Map<String, List<String>> query) {
    List<String> values = query.get(PAGE_SIZE);
    if (values == null) {
      return DEFAULT_PAGE_SIZE;
    }
    String detail =
        PAGE_SIZE + " must be an integer from 1 to " + MAX_PAGE_SIZE + "; got " + quoted(values);
    if (values.size() != 1 || !DIGITS.matcher(values.get(0)).matches()) {
      throw ApiException.invalidParameter(PAGE_SIZE, "invalid_parameter", detail);
    }
    int size = Integer.parseInt(values.get(0));
    if (size < 1 || size > MAX_PAGE_SIZE) {
      throw ApiException.invalidParameter(PAGE_SIZE, "invalid_parameter", detail);
    }
    return size;
  }

  private int startIndex(Map<String, List<String>> query) {
    List<String> values = query.get(PAGE_AFTER);
    if (values == null) {
      return 0;
    }
    String after = values.size() == 1 ? decodeCursor(values.get(0)) : null;
    if (after == null) {
      throw ApiException.invalidParameter(
          PAGE_AFTER,
          "invalid_cursor",
          PAGE_AFTER + " is not a cursor this service issued; use links.next as returned.");
    }
    int index = Collections.binarySearch(ids, after);
    // Keyset semantics: start after the named id, wherever it would sort.
    return index >= 0 ? index + 1 : -index - 1;
  }

  private String cursor(String lastId) {
    String payload = CURSOR_VERSION + "|" + lastId;
    String signed = payload + "|" + secrets.sign(payload).substring(0, 16);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(signed.getBytes(StandardCharsets.UTF_8));
  }

  /** Returns the id a cursor names, or null when the cursor was not issued by this sandbox. */
  private String decodeCursor(String cursor) {
    String signed;
    try {
      signed = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
    int bar = signed.lastIndexOf('|');
    if (bar < 0) {
      return null;
    }
    String payload = signed.substring(0, bar);
    String expected = secrets.sign(payload).substring(0, 16);
    if (!Secrets.same(expected, signed.substring(bar + 1))
        || !payload.startsWith(CURSOR_VERSION + "|")) {
      return null;
    }
    return payload.substring(CURSOR_VERSION.length() + 1);
  }

  private static String quoted(List<String> values) {
    return values.size() == 1 ? "\"" + values.get(0) + "\"" : values.size() + " values";
  }
}
