package io.formation.sdk.internal.guards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.formation.sdk.ApiError;
import io.formation.sdk.model.Team;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChecksTest {
  @Test
  void aRecordsNullComponentIsNamedInTheException() {
    Optional<String> none = Optional.empty();

    assertThatThrownBy(() -> new ApiError(none, none, none, none, null, none, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("pointer");
    assertThatThrownBy(() -> new Team("t_1", "Acme", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("raw");
  }

  @Test
  void nonNullPassesWhenEveryValueIsThere() {
    Checks.nonNull("id name raw", "t_1", "Acme", JsonNodeFactory.instance.objectNode());
  }

  @Test
  void nonNullRefusesNamesThatDoNotMatchTheValues() {
    // A record that lists a component twice or forgets one would name the wrong one.
    assertThatThrownBy(() -> Checks.nonNull("id name", "t_1", "Acme", "raw"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("2 names for 3 values");
  }

  @Test
  void aDurationSettingIsNamedWhenOutOfRange() {
    assertThatThrownBy(() -> Checks.positive("maxInterval", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxInterval must be positive, was PT0S");
    assertThatThrownBy(() -> Checks.nonNegative("inputNeededGrace", Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inputNeededGrace must not be negative, was PT-1S");
    assertThatThrownBy(() -> Checks.nonNegative("firstPollWithin", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("firstPollWithin");
    assertThat(Checks.nonNegative("inputNeededGrace", Duration.ZERO)).isEqualTo(Duration.ZERO);
    assertThat(Checks.positive("maxInterval", Duration.ofMillis(1)))
        .isEqualTo(Duration.ofMillis(1));
  }
}
