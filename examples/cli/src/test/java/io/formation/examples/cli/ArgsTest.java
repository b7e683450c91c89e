package io.formation.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.examples.cli.CommandLine.Command;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class ArgsTest {
  private static final Map<String, String> NO_ENV = Map.of();

  private static CommandLine parse(String... args) {
    return Args.parse(args, NO_ENV);
  }

  private static UsageException usageError(String... args) {
    try {
      parse(args);
    } catch (UsageException e) {
      return e;
    }
    throw new AssertionError("no usage error for " + String.join(" ", args));
  }

  @Test
  void eachCommandIsRecognised() {
    assertThat(parse("teams").command()).isEqualTo(Command.TEAMS);
    assertThat(parse("quickstart").command()).isEqualTo(Command.QUICKSTART);
    assertThat(parse("status", "ds_1").command()).isEqualTo(Command.STATUS);
    assertThat(parse("help").command()).isEqualTo(Command.HELP);
  }

  @Test
  void statusTakesTheDocumentSetIdAsItsArgument() {
    CommandLine line = parse("status", "ds_123");

    assertThat(line.documentSetId()).contains("ds_123");
    assertThat(line.help()).isFalse();
  }

  @Test
  void optionsTakeTheirValueAsTheNextArgumentOrAfterAnEqualsSign() {
    CommandLine spaced =
        parse(
            "quickstart",
            "--base-url",
            "https://api.example.com",
            "--token",
            "t1",
            "--template",
            "other",
            "--answers",
            "answers.json");
    CommandLine joined =
        parse(
            "quickstart",
            "--base-url=https://api.example.com",
            "--token=t1",
            "--template=other",
            "--answers=answers.json");

    for (CommandLine line : new CommandLine[] {spaced, joined}) {
      assertThat(line.baseUrl()).contains("https://api.example.com");
      assertThat(line.token()).contains("t1");
      assertThat(line.template()).isEqualTo("other");
      assertThat(line.answers()).contains(Path.of("answers.json"));
    }
  }

  @Test
  void aValueMayContainAnEqualsSign() {
    assertThat(parse("teams", "--token=abc==").token()).contains("abc==");
  }

  @Test
  void flagsAreOffUnlessGiven() {
    CommandLine quickstart = parse("quickstart");
    CommandLine status = parse("status", "ds_1");

    assertThat(quickstart.autofill()).isFalse();
    assertThat(quickstart.debug()).isFalse();
    assertThat(status.waitUntilComplete()).isFalse();
    assertThat(parse("quickstart", "--autofill", "--debug").autofill()).isTrue();
    assertThat(parse("quickstart", "--autofill", "--debug").debug()).isTrue();
    assertThat(parse("status", "ds_1", "--wait").waitUntilComplete()).isTrue();
  }

  @Test
  void trustOriginMayBeRepeatedAndKeepsItsOrder() {
    CommandLine line =
        parse(
            "quickstart",
            "--trust-origin",
            "https://a.example.com",
            "--trust-origin=https://b.example.com:8443/");

    assertThat(line.trustedOrigins())
        .containsExactly("https://a.example.com", "https://b.example.com:8443/");
    assertThat(parse("teams").trustedOrigins()).isEmpty();
  }

  @Test
  void optionsMayComeBeforeTheCommand() {
    CommandLine line = parse("--debug", "--token", "t", "status", "--wait", "ds_9");

    assertThat(line.command()).isEqualTo(Command.STATUS);
    assertThat(line.documentSetId()).contains("ds_9");
    assertThat(line.token()).contains("t");
    assertThat(line.debug()).isTrue();
    assertThat(line.waitUntilComplete()).isTrue();
  }

  @Test
  void doubleDashEndsTheOptions() {
    assertThat(parse("status", "--", "-odd-id").documentSetId()).contains("-odd-id");
  }

  @Test
  void theTemplateDefaultsToADelawareCorporation() {
    assertThat(parse("quickstart").template()).isEqualTo("startup_delaware-corporation");
    assertThat(Args.DEFAULT_TEMPLATE).isEqualTo("startup_delaware-corporation");
  }

  @Test
  void baseUrlAndTokenFallBackToTheEnvironment() {
    Map<String, String> env =
        Map.of(
            "FORMATION_BASE_URL", "https://env.example.com", "FORMATION_ACCESS_TOKEN", "env-token");

    CommandLine fromEnv = Args.parse(new String[] {"teams"}, env);
    CommandLine fromOptions =
        Args.parse(
            new String[] {"teams", "--base-url", "https://cli.example.com", "--token", "cli"}, env);

    assertThat(fromEnv.baseUrl()).contains("https://env.example.com");
    assertThat(fromEnv.token()).contains("env-token");
    assertThat(fromOptions.baseUrl()).contains("https://cli.example.com");
    assertThat(fromOptions.token()).contains("cli");
  }

  @Test
  void blankEnvironmentValuesCountAsUnset() {
    CommandLine line =
        Args.parse(
            new String[] {"teams"},
            Map.of("FORMATION_BASE_URL", " ", "FORMATION_ACCESS_TOKEN", ""));

    assertThat(line.baseUrl()).isEmpty();
    assertThat(line.token()).isEmpty();
  }

  @Test
  void requireBaseUrlAndRequireTokenSayHowToGiveThem() {
    CommandLine line = parse("teams");

    assertThatThrownBy(line::requireBaseUrl)
        .isInstanceOf(UsageException.class)
        .hasMessage("no base URL: pass --base-url URL or set FORMATION_BASE_URL");
    assertThatThrownBy(line::requireToken)
        .isInstanceOf(UsageException.class)
        .hasMessage("no access token: pass --token TOKEN or set FORMATION_ACCESS_TOKEN");
    assertThat(parse("teams", "--token", "t").requireToken()).isEqualTo("t");
  }

  @Test
  void helpAloneOrAsAFlagAsksForTheProgramsHelp() {
    for (String[] args : new String[][] {{"help"}, {"--help"}, {"-h"}}) {
      CommandLine line = parse(args);
      assertThat(line.command()).isEqualTo(Command.HELP);
      assertThat(line.help()).isTrue();
    }
  }

  @Test
  void helpForACommandCanBeAskedEitherWay() {
    for (String[] args :
        new String[][] {{"help", "quickstart"}, {"quickstart", "--help"}, {"-h", "quickstart"}}) {
      CommandLine line = parse(args);
      assertThat(line.command()).isEqualTo(Command.QUICKSTART);
      assertThat(line.help()).isTrue();
    }
    assertThat(parse("help", "status").documentSetId()).isEmpty();
  }

  @Test
  void theHelpFlagWinsOverAnyOtherProblem() {
    assertThat(parse("status", "--help").command()).isEqualTo(Command.STATUS);
    assertThat(parse("teams", "--bogus", "--help").command()).isEqualTo(Command.TEAMS);
    assertThat(parse("teams", "--wait", "-h").help()).isTrue();
    assertThat(parse("nosuch", "--help").command()).isEqualTo(Command.HELP);
  }

  @Test
  void noCommandIsAUsageError() {
    assertThat(usageError().getMessage()).isEqualTo("no command given");
  }

  @Test
  void anUnknownCommandIsAUsageError() {
    assertThat(usageError("deploy").getMessage()).isEqualTo("unknown command 'deploy'");
    assertThat(usageError("help", "deploy").getMessage()).isEqualTo("unknown command 'deploy'");
    assertThat(usageError("TEAMS").getMessage()).isEqualTo("unknown command 'TEAMS'");
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    assertThat(usageError("teams", "--verbose").getMessage()).isEqualTo("unknown option --verbose");
    assertThat(usageError("teams", "-v").getMessage()).isEqualTo("unknown option -v");
    assertThat(usageError("teams", "--verbose=1").getMessage())
        .isEqualTo("unknown option --verbose");
  }

  @Test
  void aMissingValueIsAUsageError() {
    assertThat(usageError("teams", "--token").getMessage())
        .isEqualTo("option --token needs a value: --token TOKEN");
    assertThat(usageError("teams", "--token", "--debug").getMessage())
        .isEqualTo("option --token needs a value: --token TOKEN");
    assertThat(usageError("teams", "--base-url=").getMessage())
        .isEqualTo("option --base-url needs a value: --base-url URL");
    assertThat(usageError("quickstart", "--answers").getMessage())
        .isEqualTo("option --answers needs a value: --answers FILE");
  }

  @Test
  void aFlagGivenAValueIsAUsageError() {
    assertThat(usageError("quickstart", "--autofill=yes").getMessage())
        .isEqualTo("option --autofill takes no value");
  }

  @Test
  void aMissingIdIsAUsageError() {
    UsageException error = usageError("status");

    assertThat(error.getMessage()).isEqualTo("missing document set id: status <id>");
    assertThat(error.command()).contains(Command.STATUS);
  }

  @Test
  void anExtraArgumentIsAUsageError() {
    assertThat(usageError("teams", "now").getMessage()).isEqualTo("unexpected argument 'now'");
    assertThat(usageError("status", "a", "b").getMessage()).isEqualTo("unexpected argument 'b'");
    assertThat(usageError("help", "teams", "more").getMessage())
        .isEqualTo("unexpected argument 'more'");
  }

  @Test
  void anOptionOfAnotherCommandIsAUsageError() {
    assertThat(usageError("teams", "--wait").getMessage())
        .isEqualTo("option --wait does not apply to 'teams'");
    assertThat(usageError("status", "ds_1", "--autofill").getMessage())
        .isEqualTo("option --autofill does not apply to 'status'");
    assertThat(usageError("--template", "x", "teams").getMessage())
        .isEqualTo("option --template does not apply to 'teams'");
  }

  @Test
  void anOptionGivenTwiceIsAUsageError() {
    assertThat(usageError("teams", "--token", "a", "--token=b").getMessage())
        .isEqualTo("option --token is given more than once");
  }

  @Test
  void aBaseUrlThatIsNotHttpIsAUsageError() {
    assertThat(usageError("teams", "--base-url", "api.example.com").getMessage())
        .isEqualTo(
            "--base-url must be an http(s) URL such as https://api.example.com, got"
                + " 'api.example.com'");
    assertThatThrownBy(
            () ->
                Args.parse(new String[] {"teams"}, Map.of("FORMATION_BASE_URL", "ftp://x.example")))
        .hasMessage(
            "FORMATION_BASE_URL must be an http(s) URL such as https://api.example.com, got"
                + " 'ftp://x.example'");
    assertThat(parse("teams", "--base-url", "http://localhost:8080/prefix").baseUrl())
        .contains("http://localhost:8080/prefix");
  }

  @Test
  void aTrustedOriginWithAPathIsAUsageError() {
    assertThat(usageError("teams", "--trust-origin", "https://a.example.com/files").getMessage())
        .isEqualTo(
            "--trust-origin must be an origin such as https://files.example.com,"
                + " got 'https://a.example.com/files'");
  }

  @Test
  void theFirstOfSeveralProblemsIsReported() {
    assertThat(usageError("--bogus", "deploy").getMessage()).isEqualTo("unknown option --bogus");
  }

  @Test
  void usageErrorsExitWithTwoAndOtherFailuresWithOne() {
    assertThat(Args.EXIT_SUCCESS).isZero();
    assertThat(Args.EXIT_FAILURE).isEqualTo(1);
    assertThat(Args.EXIT_USAGE).isEqualTo(2);
    assertThat(usageError("deploy").exitCode()).isEqualTo(2);
    assertThat(Args.exitCode(usageError("teams", "--wait"))).isEqualTo(2);
    assertThat(Args.exitCode(new IllegalStateException("service said no"))).isEqualTo(1);
  }

  @Test
  void aUsageErrorPointsToTheHelpOfItsCommand() {
    assertThat(usageError("status").helpHint())
        .isEqualTo("Run 'java -jar formation-cli.jar status --help' for usage.");
    assertThat(usageError("deploy").helpHint())
        .isEqualTo("Run 'java -jar formation-cli.jar --help' for usage.");
    assertThat(new UsageException("x").command()).isEqualTo(Optional.empty());
  }

  @Test
  void theProgramsHelpDocumentsCommandsOptionsEnvironmentAndExitCodes() {
    assertThat(Args.usage())
        .startsWith("Usage: java -jar formation-cli.jar <command> [options]\n")
        .contains("  teams ", "  quickstart ", "  status <id> ", "  help [command] ")
        .contains(
            "--base-url URL", "--token TOKEN", "--trust-origin ORIGIN", "--debug", "-h, --help")
        .contains("FORMATION_BASE_URL", "FORMATION_ACCESS_TOKEN")
        .contains("0  success", "1  a call to the service failed", "2  bad usage");
    assertThat(Args.usage(Command.HELP)).isEqualTo(Args.usage());
  }

  @Test
  void eachCommandsHelpDocumentsItsOwnOptions() {
    assertThat(Args.usage(Command.TEAMS))
        .startsWith("Usage: java -jar formation-cli.jar teams [options]\n")
        .contains("--base-url URL")
        .doesNotContain("--wait", "--autofill");
    assertThat(Args.usage(Command.QUICKSTART))
        .contains(
            "--template T",
            "(default: startup_delaware-corporation)",
            "--answers FILE",
            "--autofill")
        .contains("--trust-origin ORIGIN");
    assertThat(Args.usage(Command.STATUS))
        .startsWith("Usage: java -jar formation-cli.jar status <id> [options]\n")
        .contains("--wait");
  }
}
