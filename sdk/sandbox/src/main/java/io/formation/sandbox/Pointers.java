package io.formation.sandbox;

/** JSON Pointer (RFC 6901) building, in one place. */
final class Pointers {
  private Pointers() {}

  static String child(String pointer, String name) {
    return pointer + "/" + name.replace("~", "~0").replace("/", "~1");
  }
}
