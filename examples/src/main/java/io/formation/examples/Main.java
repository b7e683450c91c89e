package io.formation.examples;

/** Placeholder. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {}
}
