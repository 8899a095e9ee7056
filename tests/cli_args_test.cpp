// The qprof tool's subcommand arguments and every error they give.
#include <catch2/catch.hpp>
#include <sstream>

#include "cli/args.hpp"
#include "cli/diff.hpp"
#include "cli/summary.hpp"
#include "text.hpp"

namespace cli = qprof::cli;

namespace {

const cli::CommandSpec& demo_command() {
    static const cli::CommandSpec command{
        "demo",
        "Shows what a demo shows.",
        {{"sort", 0, "KEY", "order of the rows", {"self", "name"}},
         {"output", 'o', "DIR", "where to write"},
         {"json", 0, "", "write JSON"}},
        {{"FILE", "a saved run"}}};
    return command;
}

cli::ParsedArgs parse(const cli::CommandSpec& command, std::vector<std::string> words) {
    return cli::parse_args(command, words);
}

std::string error_of(const cli::CommandSpec& command, std::vector<std::string> words) {
    try {
        parse(command, std::move(words));
    } catch (const cli::UsageError& error) {
        return error.what();
    }
    return "<no error>";
}

}  // namespace

TEST_CASE("args: both value forms, short form, switches, positionals") {
    for (const auto& words : {std::vector<std::string>{"--sort=name", "a.qprof"},
                              std::vector<std::string>{"--sort", "name", "a.qprof"},
                              std::vector<std::string>{"a.qprof", "--sort", "name"}}) {
        const cli::ParsedArgs args = parse(demo_command(), words);
        CHECK(args.value_or("sort", "self") == "name");
        CHECK(args.positionals == std::vector<std::string>{"a.qprof"});
        CHECK_FALSE(args.has("json"));
        CHECK_FALSE(args.help);
    }
    for (const auto& words :
         {std::vector<std::string>{"-o", "out", "a"}, std::vector<std::string>{"-oout", "a"},
          std::vector<std::string>{"-o=out", "a"}, std::vector<std::string>{"--output=out", "a"}}) {
        CHECK(parse(demo_command(), words).value_or("output", "") == "out");
    }
    const cli::ParsedArgs args =
        parse(demo_command(), {"--json", "--sort=self", "--sort=name", "-"});
    CHECK(args.has("json"));
    CHECK(args.value_or("sort", "") == "name");  // the last use wins
    CHECK(args.value_or("output", "default") == "default");
    CHECK(args.positionals == std::vector<std::string>{"-"});  // "-" is an argument, as stdin
}

TEST_CASE("args: -- ends the options") {
    const cli::ParsedArgs args = parse(demo_command(), {"--json", "--", "--sort=x"});
    CHECK(args.has("json"));
    CHECK_FALSE(args.has("sort"));
    CHECK(args.positionals == std::vector<std::string>{"--sort=x"});
}

TEST_CASE("args: every error names the fix") {
    const cli::CommandSpec& demo = demo_command();
    CHECK(error_of(cli::summarize_command(), {"--sortt=self", "a"}) ==
          "qprof summarize: unknown option '--sortt'. Did you mean '--sort'? See 'qprof "
          "summarize --help'.");
    CHECK(error_of(demo, {"--frobnicate", "a"}) ==
          "qprof demo: unknown option '--frobnicate'. See 'qprof demo --help'.");
    CHECK(error_of(demo, {"-x", "a"}) ==
          "qprof demo: unknown option '-x'. See 'qprof demo --help'.");
    CHECK(error_of(demo, {"-sort=name", "a"}) ==
          "qprof demo: unknown option '-sort=name'. Did you mean '--sort'? See 'qprof demo "
          "--help'.");
    CHECK(
        error_of(demo, {"a", "--sort"}) ==
        "qprof demo: option '--sort' needs a value, as in '--sort=KEY'. See 'qprof demo --help'.");
    CHECK(
        error_of(demo, {"a", "--sort", "--json"}) ==
        "qprof demo: option '--sort' needs a value, as in '--sort=KEY'. See 'qprof demo --help'.");
    CHECK(error_of(demo, {"a", "-o"}) ==
          "qprof demo: option '-o' needs a value, as in '-o DIR'. See 'qprof demo --help'.");
    CHECK(error_of(demo, {"a", "--sort="}) ==
          "qprof demo: option '--sort' needs a value after '=', as in '--sort=KEY'. See 'qprof "
          "demo --help'.");
    CHECK(error_of(demo, {"a", "--json=yes"}) ==
          "qprof demo: option '--json' takes no value, but '--json=yes' gives one. See 'qprof "
          "demo --help'.");
    CHECK(error_of(demo, {"a", "--sort=selff"}) ==
          "qprof demo: unknown value 'selff' for '--sort'. Did you mean 'self'? Valid values: "
          "self, name. See 'qprof demo --help'.");
    CHECK(error_of(demo, {"--json"}) ==
          "qprof demo: missing FILE, a saved run. Usage: 'qprof demo [OPTIONS] FILE'.");
    CHECK(error_of(demo, {"a", "b"}) ==
          "qprof demo: unexpected argument 'b'; demo takes 1 argument. Usage: 'qprof demo "
          "[OPTIONS] FILE'.");
    CHECK(error_of(cli::diff_command(), {"a"}) ==
          "qprof diff: missing NEW, the run to compare (.qprof). Usage: 'qprof diff [OPTIONS] "
          "BASE NEW'.");
}

TEST_CASE("args: --help and -h skip the positional checks") {
    CHECK(parse(demo_command(), {"--help"}).help);
    CHECK(parse(demo_command(), {"a", "b", "-h"}).help);
    CHECK(error_of(demo_command(), {"--help=x"}) ==
          "qprof demo: option '--help' takes no value, but '--help=x' gives one. See 'qprof demo "
          "--help'.");
}

TEST_CASE("args: the help text lists arguments and options in one aligned column") {
    CHECK(cli::help_text(demo_command()) == R"(Usage: qprof demo [OPTIONS] FILE

Shows what a demo shows.

Arguments:
  FILE              a saved run

Options:
      --sort=KEY    order of the rows (self, name)
  -o, --output=DIR  where to write
      --json        write JSON
  -h, --help        show this help and exit
)");
    const std::string help = cli::help_text(cli::summarize_command());
    CHECK_THAT(help, Catch::StartsWith("Usage: qprof summarize [OPTIONS] FILE\n\n"));
    CHECK_THAT(help, Catch::Contains("\n  -q, --no-progress      no progress bar"));
    CHECK_THAT(help, Catch::Contains("\n      --percent-above=P  only the providers"));
    for (const std::string& line : qprof::detail::split(help, '\n')) {
        CHECK(line.size() <= 80);
    }
}
