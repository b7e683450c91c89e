package io.formation.sdk.internal.guards;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class LogTest {
  /** A logger configured to drop everything, as an application without logging setup has. */
  static final Logger SILENT =
      new Logger() {
        @Override
        public String getName() {
          return Log.NAME;
        }

        @Override
        public boolean isLoggable(Level level) {
          return false;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
          throw new AssertionError("dropped lines must not reach the logger");
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
          throw new AssertionError("dropped lines must not reach the logger");
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier) {
          throw new AssertionError("dropped lines must not reach the logger");
        }
      };

  @Test
  void theSwitchNamesALevelInAnyCase() {
    assertThat(Log.level("debug")).isEqualTo(Level.DEBUG);
    assertThat(Log.level(" TRACE ")).isEqualTo(Level.TRACE);
    assertThat(Log.level("")).isNull();
    assertThat(Log.level(null)).isNull();
    assertThat(Log.level("loud")).isNull();
  }

  @Test
  void theSwitchSendsLinesTheLoggerWouldDropToStandardError() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Log log = new Log(SILENT, Level.DEBUG, new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(log.on(Level.DEBUG)).isTrue();
    assertThat(log.on(Level.TRACE)).isFalse();
    log.log(Level.DEBUG, "GET https://api.example.com/v1/teams -> 200 with sk_live_1", "sk_live_1");
    log.log(Level.TRACE, "response body: {}", null);

    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "[formation debug] GET https://api.example.com/v1/teams -> 200 with <redacted>"
                + System.lineSeparator());
  }

  @Test
  void withoutTheSwitchASilentLoggerMeansNoLines() {
    Log log = new Log(SILENT, null, null);
    assertThat(log.on(Level.DEBUG)).isFalse();
    log.log(Level.DEBUG, "nothing", null);
  }

  @Test
  void aLineFromTheServiceCannotForgeAnotherLineOrRunAnEscapeSequence() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Log log = new Log(SILENT, Level.DEBUG, new PrintStream(err, true, StandardCharsets.UTF_8));
    log.log(Level.DEBUG, "body: ok\n[formation debug] forged\u001b[2J\u2028", null);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "[formation debug] body: ok\\n[formation debug] forged\\u001b[2J\\u2028"
                + System.lineSeparator());
  }

  @Test
  void aTraceBodyIsRedactedWholeBeforeItIsCutSoNoPartOfATokenShows() {
    String token = "tok-" + "s".repeat(40);
    // The token straddles the 4,096th character: cut first, its first half would show.
    String body = "x".repeat(Log.BODY_CHARS - 10) + token + "y".repeat(100);
    String shown = Log.shown(body.getBytes(StandardCharsets.UTF_8), token);
    assertThat(shown).doesNotContain("tok-").doesNotContain("ssss");
  }

  @Test
  void aTraceBodyIsCutOnACharacterBoundaryNotInTheMiddleOfOne() {
    // Emoji are two chars and four bytes: a cut in bytes or between surrogates breaks one.
    String body = "\ud83d\ude00".repeat(Log.BODY_CHARS);
    String shown = Log.shown(body.getBytes(StandardCharsets.UTF_8), null);
    assertThat(shown).doesNotContain("\ufffd");
    String kept = shown.substring(0, shown.indexOf("...("));
    assertThat(kept.length() % 2).isZero();
    assertThat(Character.isHighSurrogate(kept.charAt(kept.length() - 1))).isFalse();
    assertThat(shown)
        .endsWith("...(" + body.getBytes(StandardCharsets.UTF_8).length + " bytes in all)");
  }

  @Test
  void aBinaryBodyIsLeftOutOfTheTrace() {
    byte[] gif = {'G', 'I', 'F', '8', '9', 'a', 0, 1, 2, (byte) 0xff, (byte) 0xfe};
    assertThat(Log.shown(gif, null)).isEqualTo("(binary body of 11 bytes left out)");
    assertThat(Log.shown("{\"a\":1}\n".getBytes(StandardCharsets.UTF_8), null))
        .isEqualTo("{\"a\":1}\\n");
  }

  @Test
  void redactionTakesTheQueryOfEveryUrlAndPath() {
    assertThat(
            Redaction.redact(
                "{\"url\":\"/v1/actions/a1?sig=s3cr3t\",\"next\":\"https://h/x?page[after]=c\"}",
                null))
        .isEqualTo("{\"url\":\"/v1/actions/a1?<redacted>\",\"next\":\"https://h/x?<redacted>\"}");
  }

  @Test
  void redactionTakesTheTokenAndAnythingShapedLikeOne() {
    assertThat(
            Redaction.redact(
                "a tok3n, Authorization: Bearer abc.def-ghi, and eyJhbGciOi.eyJzdWIiOi.sig",
                "tok3n"))
        .isEqualTo("a <redacted>, Authorization: Bearer <redacted>, and <redacted>");
  }
}
