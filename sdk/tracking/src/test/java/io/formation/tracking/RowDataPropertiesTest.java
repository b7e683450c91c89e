package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.WaitState;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * docs/tracking.md, "Rows this version cannot read": whatever a row holds (a later format, a
 * damaged string, a legacy {@code i:} prefix), this version reads it or refuses it with an {@link
 * IllegalArgumentException} saying why, which lists it as unreadable; nothing else escapes to
 * {@code tracked()} or to a poll.
 */
class RowDataPropertiesTest {
  private static final String VALID =
      "w2.ds_01HZX3K9Q2M7W8T4V6B5N0CRJD.signature_requests_needed.1767225600000.1800000.8000"
          + ".-12000.14000.22000.4.mi.401";

  @Property(tries = 2000)
  void anyRowDataIsReadOrRefusedAsUnreadable(@ForAll("rowData") String data) {
    try {
      WaitState wait = TaskData.decode(data);
      assertThat(TaskData.decode(wait.encode()).encode()).isEqualTo(wait.encode());
    } catch (IllegalArgumentException unreadable) {
      assertThat(unreadable.getMessage()).isNotBlank();
    }
  }

  @Provide
  Arbitrary<String> rowData() {
    Arbitrary<String> mutated =
        Arbitraries.integers()
            .between(0, VALID.length() - 1)
            .flatMap(
                at ->
                    Arbitraries.strings()
                        .withChars("0123456789-.wim%:xnA")
                        .ofMaxLength(25)
                        .map(insert -> VALID.substring(0, at) + insert + VALID.substring(at + 1)));
    Arbitrary<String> prefixed = mutated.map(text -> "i:" + text);
    Arbitrary<String> anything = Arbitraries.strings().ofMaxLength(200);
    return Arbitraries.oneOf(mutated, prefixed, anything);
  }
}
