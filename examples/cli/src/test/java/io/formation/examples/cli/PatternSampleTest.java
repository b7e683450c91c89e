package io.formation.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class PatternSampleTest {
  private static String sample(String pattern) {
    return PatternSample.generate(pattern, 0, Integer.MAX_VALUE);
  }

  @Test
  void digitClassesCountUpFromOne() {
    assertThat(sample("^[0-9]{5}$")).isEqualTo("12345");
    assertThat(sample("^\\d{3}-\\d{2}-\\d{4}$")).isEqualTo("123-45-6789");
  }

  @Test
  void escapedLiteralsAreWrittenAsThemselves() {
    assertThat(sample("^\\$\\d+\\.\\d{2}$")).isEqualTo("$1.23");
  }

  @Test
  void alternationTakesTheFirstBranch() {
    assertThat(sample("^(cat|dog)s?$")).isEqualTo("cat");
    assertThat(sample("^(?:US|CA)-(?<zip>\\d{5})$")).isEqualTo("US-12345");
  }

  @Test
  void negatedClassesPickACharacterOutsideTheClass() {
    assertThat(sample("^[^0-9]{3}$")).isEqualTo("abc");
  }

  @Test
  void openRepetitionsGrowToReachMinLength() {
    assertThat(PatternSample.generate("^[a-z]+$", 5, 10)).isEqualTo("abcde");
  }

  @Test
  void anUnanchoredPatternOnlyNeedsToOccurSomewhere() {
    assertThat(sample("[A-Z]")).isEqualTo("A");
  }

  @Test
  void lookaroundAndBackReferencesAreBeyondIt() {
    assertThat(sample("^(?=.*\\d)\\w+$")).isNull();
    assertThat(sample("^(a)\\1$")).isNull();
  }

  @Test
  void noStringIsReturnedWhenTheLengthCannotFit() {
    assertThat(PatternSample.generate("^[0-9]{5}$", 0, 3)).isNull();
  }

  @Test
  void matchingSearchesAsJsonSchemaDoes() {
    assertThat(PatternSample.matches("[0-9]", "abc1")).isTrue();
    assertThat(PatternSample.matches("^[0-9]$", "abc1")).isFalse();
  }
}
