package io.formation.examples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Writes a string that a simple regular expression matches, such as {@code ^[0-9]{5}$} or {@code
 * ^[A-Z]{2}-\d+$}. Covers literals, classes, {@code \d \w \s .}, groups, alternation (first branch)
 * and quantifiers; anything else (lookaround, back references) gives up rather than guess.
 */
final class PatternSample {
  private static final String DIGITS = "1234567890";
  private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
  private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  private static final String WORD = LOWER + UPPER + DIGITS + "_";
  private static final String PRINTABLE = LOWER + UPPER + DIGITS + " -_.";
  // Enough repetitions to reach any length a form field plausibly asks for.
  private static final int MAX_EXTRA = 256;

  private PatternSample() {}

  /**
   * A string of {@code minLength..maxLength} characters that {@code pattern} matches (searching, as
   * JSON Schema does), or null when the pattern is beyond this class or no length fits.
   */
  static String generate(String pattern, int minLength, int maxLength) {
    Node node;
    try {
      node = new Parser(pattern).parse();
    } catch (UnsupportedOperationException | IndexOutOfBoundsException | NumberFormatException e) {
      return null;
    }
    Pattern compiled = compileOrNull(pattern);
    int limit = Math.min(MAX_EXTRA, Math.max(minLength, 1) + 1);
    for (int extra = 0; extra <= limit; extra++) {
      StringBuilder out = new StringBuilder();
      node.write(out, extra, new int[] {0});
      String candidate = out.toString();
      int length = candidate.codePointCount(0, candidate.length());
      if (length >= minLength
          && length <= maxLength
          && (compiled == null || compiled.matcher(candidate).find())) {
        return candidate;
      }
    }
    return null;
  }

  /** Whether {@code value} matches; patterns Java cannot compile count as matching. */
  static boolean matches(String pattern, String value) {
    Pattern compiled = compileOrNull(pattern);
    return compiled == null || compiled.matcher(value).find();
  }

  // JSON Schema patterns are ECMA 262; the few that java.util.regex rejects cannot be checked here.
  private static Pattern compileOrNull(String pattern) {
    try {
      return Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  private interface Node {
    /**
     * {@code extra} lengthens every repetition that may grow; {@code position} varies characters.
     */
    void write(StringBuilder out, int extra, int[] position);
  }

  private record Literal(char c) implements Node {
    @Override
    public void write(StringBuilder out, int extra, int[] position) {
      out.append(c);
    }
  }

  private record CharSet(String members) implements Node {
    @Override
    public void write(StringBuilder out, int extra, int[] position) {
      out.append(members.charAt(position[0]++ % members.length()));
    }
  }

  private record Sequence(List<Node> nodes) implements Node {
    @Override
    public void write(StringBuilder out, int extra, int[] position) {
      nodes.forEach(node -> node.write(out, extra, position));
    }
  }

  private record Repeat(Node node, int min, int max) implements Node {
    @Override
    public void write(StringBuilder out, int extra, int[] position) {
      int count = max < 0 ? min + extra : Math.min(max, min + extra);
      for (int i = 0; i < count; i++) {
        node.write(out, extra, position);
      }
    }
  }

  private static final class Parser {
    private final String pattern;
    private int at;

    Parser(String pattern) {
      this.pattern = pattern;
    }

    Node parse() {
      Node node = alternation();
      if (at < pattern.length()) {
        throw new UnsupportedOperationException("unbalanced ) at " + at);
      }
      return node;
    }

    // The first alternative is as good a sample as any and keeps output deterministic.
    private Node alternation() {
      Node first = sequence();
      while (peek('|')) {
        at++;
        sequence();
      }
      return first;
    }

    private Node sequence() {
      List<Node> nodes = new ArrayList<>();
      while (at < pattern.length() && !peek('|') && !peek(')')) {
        Node atom = atom();
        if (atom != null) {
          nodes.add(quantified(atom));
        }
      }
      return new Sequence(nodes);
    }

    private Node atom() {
      char c = pattern.charAt(at++);
      switch (c) {
        case '^':
        case '$':
          return null;
        case '.':
          return new CharSet(LOWER);
        case '[':
          return characterClass();
        case '\\':
          return escape();
        case '(':
          if (peek('?')) {
            if (pattern.startsWith("?:", at)) {
              at += 2;
            } else if (pattern.startsWith("?<", at)
                && !pattern.startsWith("?<=", at)
                && !pattern.startsWith("?<!", at)) {
              at = pattern.indexOf('>', at) + 1;
            } else {
              throw new UnsupportedOperationException("lookaround");
            }
          }
          Node group = alternation();
          expect(')');
          return group;
        case '*':
        case '+':
        case '?':
        case '{':
          throw new UnsupportedOperationException("dangling quantifier");
        default:
          return new Literal(c);
      }
    }

    private Node quantified(Node atom) {
      if (at >= pattern.length()) {
        return atom;
      }
      int min;
      int max;
      char c = pattern.charAt(at);
      if (c == '*') {
        min = 0;
        max = -1;
        at++;
      } else if (c == '+') {
        min = 1;
        max = -1;
        at++;
      } else if (c == '?') {
        min = 0;
        max = 1;
        at++;
      } else if (c == '{' && pattern.indexOf('}', at) > at) {
        String[] bounds = pattern.substring(at + 1, pattern.indexOf('}', at)).split(",", -1);
        try {
          min = Integer.parseInt(bounds[0].strip());
          max =
              bounds.length == 1
                  ? min
                  : bounds[1].isBlank() ? -1 : Integer.parseInt(bounds[1].strip());
        } catch (NumberFormatException e) {
          throw new UnsupportedOperationException("quantifier", e);
        }
        at = pattern.indexOf('}', at) + 1;
      } else {
        return atom;
      }
      if (peek('?') || peek('+')) {
        at++; // lazy or possessive: same strings match
      }
      return new Repeat(atom, min, max);
    }

    private Node escape() {
      char c = pattern.charAt(at++);
      switch (c) {
        case 'd':
          return new CharSet(DIGITS);
        case 'w':
          return new CharSet(WORD);
        case 's':
          return new CharSet(" ");
        case 'D':
          return new CharSet(LOWER);
        case 'W':
        case 'S':
          return new CharSet(c == 'W' ? " -" : LOWER);
        case 'n':
          return new Literal('\n');
        case 't':
          return new Literal('\t');
        case 'r':
          return new Literal('\r');
        case 'u':
          at += 4;
          return new Literal((char) Integer.parseInt(pattern.substring(at - 4, at), 16));
        case 'x':
          at += 2;
          return new Literal((char) Integer.parseInt(pattern.substring(at - 2, at), 16));
        default:
          if (Character.isLetterOrDigit(c)) {
            throw new UnsupportedOperationException("escape \\" + c);
          }
          return new Literal(c);
      }
    }

    private Node characterClass() {
      boolean negated = peek('^');
      if (negated) {
        at++;
      }
      StringBuilder members = new StringBuilder();
      boolean first = true;
      while (first || !peek(']')) {
        first = false;
        char c = pattern.charAt(at++);
        if (c == '\\') {
          Node escaped = escape();
          if (escaped instanceof CharSet set) {
            members.append(set.members());
            continue;
          }
          c = ((Literal) escaped).c();
        }
        if (peek('-') && at + 1 < pattern.length() && pattern.charAt(at + 1) != ']') {
          at++;
          char end = pattern.charAt(at++);
          if (end == '\\') {
            end = ((Literal) escape()).c();
          }
          members.append(range(c, end));
        } else {
          members.append(c);
        }
      }
      at++;
      if (!negated) {
        return new CharSet(members.toString());
      }
      StringBuilder allowed = new StringBuilder();
      for (char c : PRINTABLE.toCharArray()) {
        if (members.indexOf(String.valueOf(c)) < 0) {
          allowed.append(c);
        }
      }
      if (allowed.length() == 0) {
        throw new UnsupportedOperationException("negated class excludes every sample character");
      }
      return new CharSet(allowed.toString());
    }

    // Zero goes last so that [0-9]{5} reads 12345 rather than 01234.
    private static String range(char from, char to) {
      StringBuilder out = new StringBuilder();
      for (int c = from; c <= to; c++) {
        out.append((char) c);
      }
      if (from == '0' && to > '0') {
        out.deleteCharAt(0).append('0');
      }
      return out.toString();
    }

    private boolean peek(char c) {
      return at < pattern.length() && pattern.charAt(at) == c;
    }

    private void expect(char c) {
      if (!peek(c)) {
        throw new UnsupportedOperationException("expected " + c + " at " + at);
      }
      at++;
    }
  }
}
