package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * Inputs laid out side by side sit on one line, on a desktop window, however their labels and hints
 * wrap and whichever of them has a message.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class SideBySideTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  @LocalServerPort int port;

  @RegisterExtension final Browser page = Browser.open(Browser.DESKTOP, SandboxForTests.PATIENCE);

  @Test
  void inputsSideBySideSitOnOneLineWhateverTheirHintsAndMessages() {
    Fill.start(page, port);
    Fill.people(page, "ada@example.com");
    assertThat(rowsOutOfLine()).isEmpty();

    // One input of a row with a message, the others without.
    page.replace("registered_agent", ".root_properties_address_properties_city", "Wilmington");
    page.choose("registered_agent", ".root_properties_address_properties_state", "DE");
    page.replace("registered_agent", ".root_properties_address_properties_zip", "1980");
    page.replace("stock", ".root_properties_par_value", "0");
    page.submit("registered_agent");
    page.submit("stock");
    page.waitFor(
        Browser.inForm("registered_agent", ".root_properties_address_properties_zip.invalid"));
    page.waitFor(Browser.inForm("stock", ".root_properties_par_value.invalid"));
    assertThat(rowsOutOfLine()).isEmpty();
  }

  /**
   * Each row of inputs side by side whose tops differ by more than a pixel: the tops of the inputs
   * of one line of a horizontal layout (items that wrapped onto a line of their own are another).
   */
  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> rowsOutOfLine() {
    List<Map<String, Object>> rows =
        (List<Map<String, Object>>)
            page.script(
                "const rows = [];"
                    + "for (const layout of document.querySelectorAll('.horizontal-layout')) {"
                    + "  const lines = new Map();"
                    + "  for (const item of layout.children) {"
                    + "    const input = item.querySelector('input, select, textarea');"
                    + "    if (!input) continue;"
                    + "    const line = Math.round(item.getBoundingClientRect().top);"
                    + "    if (!lines.has(line)) lines.set(line, []);"
                    + "    lines.get(line).push({name: input.id,"
                    + "        top: input.getBoundingClientRect().top});"
                    + "  }"
                    + "  for (const inputs of lines.values()) if (inputs.length > 1) rows.push({"
                    + "    inputs: inputs.map(i => i.name).join(' '),"
                    + "    spread: Math.max(...inputs.map(i => i.top))"
                    + "        - Math.min(...inputs.map(i => i.top))});"
                    + "}"
                    + "return rows;");
    assertThat(rows).as("rows of inputs side by side").hasSizeGreaterThanOrEqualTo(5);
    return rows.stream().filter(row -> ((Number) row.get("spread")).doubleValue() > 1).toList();
  }
}
