// The pure parts of the qprof tool: subcommand arguments and every error they give, the
// summarize and diff tables (text against golden files, JSON, HTML), and the progress line
// drawn with a fake clock.
#include <catch2/catch.hpp>
#include <sstream>

#include "cli/args.hpp"
#include "cli/diff.hpp"
#include "cli/progress.hpp"
#include "cli/summary.hpp"
#include "json.hpp"
#include "test_support.hpp"
#include "text.hpp"

namespace cli = qprof::cli;
namespace json = qprof::test::json;

namespace {

constexpr std::int64_t kMs = 1'000'000;

// Arguments.

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

// Traces built by hand.

qprof::ProviderTotals provider(std::string name, std::int64_t self_ms, std::uint64_t count,
                               std::uint64_t hits) {
    qprof::ProviderTotals totals;
    totals.provider = std::move(name);
    totals.self_ns = self_ms * kMs;
    totals.total_ns = self_ms * kMs + kMs / 2;
    totals.count = count;
    totals.hits = hits;
    totals.misses = count - hits;
    return totals;
}

qprof::ProviderTotals activity(std::string name, std::int64_t self_ms) {
    qprof::ProviderTotals totals = provider(std::move(name), self_ms, 1, 0);
    totals.is_activity = true;
    return totals;
}

qprof::Trace trace_of(std::vector<qprof::ProviderTotals> providers, std::int64_t wall_ms,
                      std::vector<std::uint32_t> nodes_per_thread) {
    qprof::Trace trace;
    trace.providers = std::move(providers);
    trace.wall_ns = wall_ms * kMs;
    for (std::uint32_t nodes : nodes_per_thread) {
        trace.threads.emplace_back();  // the counts are what a totals-only read leaves
        trace.events += nodes;
    }
    return trace;
}

// Self times 4, 3, 2, 1 ms and 0: 40, 30, 20, 10 and 0 % of the 10 ms summed.
qprof::Trace summary_trace() {
    qprof::ProviderTotals optimized_mir = provider("optimized_mir", 3, 10, 0);
    optimized_mir.load_ns = 1'250'000;
    qprof::ProviderTotals type_of = provider("type_of", 4, 1'234, 1'000);
    type_of.blocked_ns = kMs / 2;
    return trace_of({activity("parsing", 2), type_of, provider("def_span", 1, 3, 2), optimized_mir,
                     provider("unused", 0, 0, 0)},
                    12, {1'200, 48});
}

std::vector<std::string> row_names(const std::vector<cli::SummaryRow>& rows) {
    std::vector<std::string> names;
    for (const cli::SummaryRow& row : rows) {
        names.push_back(row.provider->provider);
    }
    return names;
}

std::vector<std::string> summary_names(const std::vector<std::string>& words) {
    const cli::ParsedArgs args = parse(cli::summarize_command(), words);
    return row_names(cli::summary_rows(summary_trace(), cli::summary_options(args)));
}

// base -> new: type_of 4 -> 3 ms, typeck 2 -> 5 ms, parse 0 -> 1 ms, old_pass only in base,
// <script>alert(1)</script> only in new, codegen an activity in base but a provider in new.
qprof::Trace diff_base() {
    return trace_of(
        {provider("type_of", 4, 100, 60), provider("typeck", 2, 10, 0), provider("parse", 0, 1, 0),
         provider("old_pass", 1, 5, 1), activity("codegen", 6)},
        20, {500});
}

qprof::Trace diff_new() {
    return trace_of(
        {provider("type_of", 3, 90, 70), provider("typeck", 5, 12, 0), provider("parse", 1, 2, 0),
         provider("<script>alert(1)</script>", 2, 4, 0), provider("codegen", 6, 3, 0)},
        25, {400, 150});
}

std::string diff_output(cli::DiffFormat format, cli::DiffSort sort = cli::DiffSort::change) {
    const qprof::Trace base = diff_base();
    const qprof::Trace next = diff_new();
    std::ostringstream out;
    cli::write_diff({"base & old.qprof", base}, {"new.qprof", next}, {sort, format}, out);
    return out.str();
}

std::vector<std::string> diff_names(cli::DiffSort sort) {
    std::vector<std::string> names;
    for (const cli::DiffRow& row : cli::diff_rows(diff_base(), diff_new(), sort)) {
        names.push_back(row.provider + (row.is_activity ? "@" : ""));
    }
    return names;
}

// Progress with a string stream, a clock the test moves and a fixed width.
struct FakeTerminal {
    std::ostringstream out;
    std::int64_t now_ns = 0;
    int columns = 75;

    cli::Progress::Terminal terminal() {
        return {&out, [this] { return now_ns; }, [this] { return columns; }};
    }
    std::string take() {
        std::string text = out.str();
        out.str("");
        return text;
    }
};

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

TEST_CASE("summary: by self time by default, ties by name, then the provider before the activity") {
    CHECK(summary_names({"t"}) ==
          std::vector<std::string>{"type_of", "optimized_mir", "parsing", "def_span", "unused"});
    qprof::Trace trace =
        trace_of({activity("b", 1), provider("b", 1, 1, 0), provider("a", 1, 1, 0)}, 1, {});
    const std::vector<cli::SummaryRow> rows = cli::summary_rows(trace, {});
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].provider->provider == "a");
    CHECK_FALSE(rows[1].provider->is_activity);
    CHECK(rows[2].provider->is_activity);
}

TEST_CASE("summary: every --sort key") {
    using Names = std::vector<std::string>;
    CHECK(summary_names({"--sort=total", "t"}) ==
          Names{"type_of", "optimized_mir", "parsing", "def_span", "unused"});
    CHECK(summary_names({"--sort=count", "t"}) ==
          Names{"type_of", "optimized_mir", "def_span", "parsing", "unused"});
    CHECK(summary_names({"--sort=hits", "t"}) ==
          Names{"type_of", "def_span", "optimized_mir", "parsing", "unused"});
    // An activity and a provider never asked have no hit rate: last, by name.
    CHECK(summary_names({"--sort=hit-rate", "t"}) ==
          Names{"type_of", "def_span", "optimized_mir", "parsing", "unused"});
    CHECK(summary_names({"--sort=blocked", "t"})[0] == "type_of");
    CHECK(summary_names({"--sort=load", "t"})[0] == "optimized_mir");
    CHECK(summary_names({"--sort=name", "t"}) ==
          Names{"def_span", "optimized_mir", "parsing", "type_of", "unused"});
}

TEST_CASE("summary: --percent-above keeps the rows above it and is checked") {
    using Names = std::vector<std::string>;
    CHECK(summary_names({"--percent-above=20", "t"}) == Names{"type_of", "optimized_mir"});
    CHECK(summary_names({"--percent-above", "19.5", "t"}) ==
          Names{"type_of", "optimized_mir", "parsing"});
    CHECK(summary_names({"--percent-above=0", "t"}).size() == 4);
    CHECK(summary_names({"--percent-above=100", "t"}).empty());
    for (const std::string bad : {"150", "-1", "abc", "5%", "nan", "inf"}) {
        CHECK_THROWS_WITH(summary_names({"--percent-above=" + bad, "t"}),
                          "qprof summarize: bad value '" + bad +
                              "' for '--percent-above': expected a number from 0 to 100, as in "
                              "'--percent-above=1.5'. See 'qprof summarize --help'.");
    }
}

TEST_CASE("summary: the table matches the golden file") {
    std::ostringstream out;
    cli::write_summary(summary_trace(), {}, out);
    qprof::test::check_golden(out.str(), "summarize.approved.txt");
}

TEST_CASE("summary: the table says how many rows --percent-above hid") {
    std::ostringstream out;
    cli::write_summary(summary_trace(), {cli::SummarySort::self, 25.0, false}, out);
    CHECK_THAT(out.str(), Catch::Contains("\ntype_of "));
    CHECK_THAT(out.str(), Catch::Contains("\noptimized_mir "));
    CHECK_THAT(out.str(), !Catch::Contains("parsing"));
    CHECK_THAT(out.str(),
               Catch::EndsWith("3 providers with 25 % of the self time or less not shown\n"));
}

TEST_CASE("summary: JSON in the documented shape, raw nanoseconds") {
    std::ostringstream out;
    cli::SummaryOptions options;
    options.json = true;
    cli::write_summary(summary_trace(), options, out);
    const json::Value doc = json::parse(out.str());
    CHECK(doc["wall_ns"].text == "12000000");
    CHECK(doc["events"].number == 1'248);
    CHECK(doc["threads"].number == 2);
    CHECK(doc["total_self_ns"].number == 10 * kMs);
    const json::Value& providers = doc["providers"];
    REQUIRE(providers.items.size() == 5);
    const json::Value& type_of = providers[0];
    CHECK(type_of["provider"].text == "type_of");
    CHECK(type_of["activity"].kind == json::Kind::boolean);
    CHECK_FALSE(type_of["activity"].boolean);
    CHECK(type_of["self_ns"].text == "4000000");
    CHECK(type_of["self_percent"].text == "40");
    CHECK(type_of["total_ns"].text == "4500000");
    CHECK(type_of["count"].number == 1'234);
    CHECK(type_of["hits"].number == 1'000);
    CHECK(type_of["hit_rate"].text == "0.81");
    CHECK(type_of["blocked_ns"].text == "500000");
    CHECK(type_of["load_ns"].text == "0");
    CHECK(providers[2]["provider"].text == "parsing");
    CHECK(providers[2]["activity"].boolean);
    CHECK(providers[2]["hit_rate"].kind == json::Kind::null);
    CHECK(providers[4]["hit_rate"].kind == json::Kind::null);  // never asked
}

TEST_CASE("summary: an empty trace gives a header, a total line and valid JSON") {
    const qprof::Trace empty;
    std::ostringstream text;
    cli::write_summary(empty, {}, text);
    CHECK_THAT(text.str(), Catch::EndsWith("\ntotal: 0.000 ms wall time, 0 events, 0 threads\n"));
    std::ostringstream out;
    cli::write_summary_json(empty, {}, out);
    CHECK(json::parse(out.str())["providers"].items.empty());
}

TEST_CASE("ms_text: 3 decimals, thousands, signs, rounding") {
    CHECK(cli::ms_text(0) == "0.000");
    CHECK(cli::ms_text(1'234'567'891) == "1,234.568");
    CHECK(cli::ms_text(-2'500'000) == "-2.500");
    CHECK(cli::ms_text(-400) == "0.000");  // no "-0.000"
    CHECK(cli::ms_text(999'999) == "1.000");
}

TEST_CASE("diff: rows matched by name and kind, with signs and percentages") {
    const std::vector<cli::DiffRow> rows =
        cli::diff_rows(diff_base(), diff_new(), cli::DiffSort::change);
    REQUIRE(rows.size() == 7);
    auto row = [&](const std::string& name, bool is_activity) {
        for (const cli::DiffRow& candidate : rows) {
            if (candidate.provider == name && candidate.is_activity == is_activity) {
                return candidate;
            }
        }
        FAIL("no row " << name);
        return cli::DiffRow{};
    };
    const cli::DiffRow type_of = row("type_of", false);
    CHECK(type_of.presence == cli::Presence::both);
    CHECK(type_of.change_ns == -1 * kMs);
    CHECK(type_of.change_percent == Approx(-25.0));
    CHECK(type_of.count_change == -10);
    CHECK(type_of.hits_change == 10);
    CHECK(row("typeck", false).change_ns == 3 * kMs);
    CHECK_FALSE(row("parse", false).change_percent);  // base self 0
    const cli::DiffRow old_pass = row("old_pass", false);
    CHECK(old_pass.presence == cli::Presence::only_base);
    CHECK(old_pass.new_self_ns == 0);
    CHECK(old_pass.change_ns == -1 * kMs);
    CHECK(old_pass.count_change == -5);
    CHECK_FALSE(old_pass.change_percent);
    CHECK(row("<script>alert(1)</script>", false).presence == cli::Presence::only_new);
    CHECK(row("codegen", true).presence == cli::Presence::only_base);
    CHECK(row("codegen", false).presence == cli::Presence::only_new);
}

TEST_CASE("diff: sorted by absolute change, by absolute percent or by name; ties by name") {
    using Names = std::vector<std::string>;
    CHECK(diff_names(cli::DiffSort::change) == Names{"codegen", "codegen@", "typeck",
                                                     "<script>alert(1)</script>", "old_pass",
                                                     "parse", "type_of"});
    CHECK(diff_names(cli::DiffSort::change_percent) == Names{"typeck", "type_of",
                                                             "<script>alert(1)</script>", "codegen",
                                                             "codegen@", "old_pass", "parse"});
    CHECK(diff_names(cli::DiffSort::name) == Names{"<script>alert(1)</script>", "codegen",
                                                   "codegen@", "old_pass", "parse", "type_of",
                                                   "typeck"});
}

TEST_CASE("diff: self time of work, mean per run, and changes within noise listed last") {
    qprof::ProviderTotals join_base = provider("join workers", 6, 1, 0);
    join_base.blocked_ns = 6 * kMs;  // waiting, not work
    qprof::ProviderTotals join_new = provider("join workers", 1, 1, 0);
    join_new.blocked_ns = 1 * kMs;
    const qprof::Trace base = trace_of(
        {provider("steady", 100, 10, 5), provider("slower", 5, 4, 0), join_base}, 1'000, {20});
    const qprof::Trace next = trace_of(
        {provider("steady", 103, 20, 15), provider("slower", 8, 4, 0), join_new}, 1'000, {20});
    const std::vector<cli::DiffRow> rows = cli::diff_rows(base, next, cli::DiffSort::change);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].provider == "slower");  // +3 ms, +60 %: a real change
    CHECK_FALSE(rows[0].noise);
    CHECK(rows[0].base_mean_ns == 5 * kMs / 4);
    CHECK(rows[1].provider == "join workers");  // waits changed, work did not: no change
    CHECK(rows[1].change_ns == 0);
    CHECK(rows[1].noise);
    CHECK(rows[2].provider == "steady");  // +3 ms but +3 %: noise, listed after real changes
    CHECK(rows[2].noise);
    CHECK(rows[2].base_mean_ns == 20 * kMs);  // 100 ms over 5 runs
    CHECK(rows[2].new_mean_ns == 103 * kMs / 5);
    std::ostringstream out;
    cli::write_diff_text({"a", base}, {"b", next}, cli::DiffSort::change, out);
    CHECK_THAT(out.str(), Catch::Contains("noise: changes under 5 % of a provider's base self "
                                          "time or under 0.1 % of the base wall time (1.000 ms)"));
    CHECK_THAT(out.str(), Catch::Contains("~ noise"));
}

TEST_CASE("diff: options") {
    const cli::CommandSpec command = cli::diff_command();
    const cli::DiffOptions defaults = cli::diff_options(parse(command, {"a", "b"}));
    CHECK(defaults.sort == cli::DiffSort::change);
    CHECK(defaults.format == cli::DiffFormat::text);
    const cli::DiffOptions chosen =
        cli::diff_options(parse(command, {"--sort=change-pct", "--html", "a", "b"}));
    CHECK(chosen.sort == cli::DiffSort::change_percent);
    CHECK(chosen.format == cli::DiffFormat::html);
    CHECK_THROWS_WITH(cli::diff_options(parse(command, {"--json", "--html", "a", "b"})),
                      "qprof diff: '--json' and '--html' write different formats; give one. See "
                      "'qprof diff --help'.");
}

TEST_CASE("diff: the table matches the golden file") {
    const std::string text = diff_output(cli::DiffFormat::text);
    CHECK_THAT(text, Catch::Contains("  +3.000  "));
    CHECK_THAT(text, Catch::Contains("  -1.000  "));
    qprof::test::check_golden(text, "diff.approved.txt");
}

TEST_CASE("diff: JSON in the documented shape") {
    const json::Value doc = json::parse(diff_output(cli::DiffFormat::json));
    CHECK(doc["base"]["file"].text == "base & old.qprof");
    CHECK(doc["base"]["wall_ns"].number == 20 * kMs);
    CHECK(doc["base"]["events"].number == 500);
    CHECK(doc["new"]["events"].number == 550);
    CHECK(doc["wall_change_ns"].number == 5 * kMs);
    const json::Value& providers = doc["providers"];
    REQUIRE(providers.items.size() == 7);
    CHECK(providers[0]["provider"].text == "codegen");
    CHECK_FALSE(providers[0]["activity"].boolean);
    CHECK(providers[0]["status"].text == "only in new");
    CHECK(providers[0]["base_self_ns"].text == "0");
    CHECK(providers[0]["change_ns"].text == "6000000");
    CHECK(providers[0]["change_percent"].kind == json::Kind::null);
    CHECK(providers[1]["provider"].text == "codegen");
    CHECK(providers[1]["activity"].boolean);
    CHECK(providers[1]["status"].text == "only in base");
    CHECK(providers[1]["change_ns"].text == "-6000000");
    const json::Value& typeck = providers[2];
    CHECK(typeck["status"].text == "both");
    CHECK(typeck["base_self_ns"].text == "2000000");
    CHECK(typeck["new_self_ns"].text == "5000000");
    CHECK(typeck["change_ns"].text == "3000000");
    CHECK(typeck["change_percent"].text == "150");
    CHECK(typeck["count_change"].text == "2");
    CHECK(typeck["hits_change"].text == "0");
    CHECK(providers[6]["count_change"].text == "-10");
}

TEST_CASE("diff: the HTML page is self-contained, escaped and matches the golden file") {
    const std::string page = diff_output(cli::DiffFormat::html);
    CHECK_THAT(page, Catch::StartsWith("<!DOCTYPE html>"));
    CHECK_THAT(page, !Catch::Contains("http://") && !Catch::Contains("https://"));
    CHECK_THAT(page, !Catch::Contains("src=") && !Catch::Contains("<link"));
    CHECK_THAT(page, !Catch::Contains("@import") && !Catch::Contains("url("));
    CHECK_THAT(page, Catch::Contains("prefers-color-scheme: dark"));
    CHECK_THAT(page, !Catch::Contains("<script>alert"));
    CHECK_THAT(page, Catch::Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    CHECK_THAT(page, Catch::Contains("base &amp; old.qprof"));
    CHECK_THAT(page, Catch::Contains("only in base") && Catch::Contains("only in new"));
    CHECK_THAT(page, Catch::Contains("<span class=\"slower\" style=\"width:50%\">"));
    CHECK_THAT(page, Catch::Contains("<span class=\"faster\" style=\"width:50%\">"));
    qprof::test::check_golden(page, "diff.approved.html");
}

TEST_CASE("progress: the line at 45 %") {
    FakeTerminal fake;
    cli::Progress progress{"reading big.qprof", 160'000'000, true, fake.terminal()};
    fake.now_ns = 900 * kMs;
    progress.update(72'000'000);
    CHECK(fake.take() ==
          "\rqprof: reading big.qprof [#########-----------] 45%  72/160 MB  1.1 s left\x1b[K");
}

TEST_CASE("progress: the line fits the terminal") {
    cli::Progress progress{"reading big.qprof", 160'000'000, false};
    CHECK(progress.line(0, 0, 80) ==
          "qprof: reading big.qprof [" + std::string(39, '-') + "] 0%  0/160 MB");
    CHECK(progress.line(160'000'000, 3 * 1'000 * kMs, 200)
              .find("[" + std::string(40, '#') + "] 100%  160/160 MB") !=
          std::string::npos);  // the bar stops growing at 40
    const std::string narrow = progress.line(80'000'000, 2'000 * kMs, 30);
    CHECK(narrow == "qprof: reading big.qprof 50%");
    CHECK(progress.line(80'000'000, 200 * 1'000 * kMs, 120).ends_with("3 min 20 s left"));
    cli::Progress huge{"reading", 12'000'000'000, false};
    CHECK(huge.line(1'500'000'000, 0, 80).ends_with("12%  1.5/12.0 GB"));
}

TEST_CASE("progress: repainted at most every 100 ms") {
    FakeTerminal fake;
    cli::Progress progress{"reading x", 100'000'000, true, fake.terminal()};
    progress.update(1'000'000);
    CHECK_THAT(fake.take(), Catch::Contains("1%"));
    fake.now_ns = 99 * kMs;
    progress.update(2'000'000);
    CHECK(fake.take().empty());
    fake.now_ns = 100 * kMs;
    progress.update(3'000'000);
    CHECK_THAT(fake.take(), Catch::Contains("3%"));
}

TEST_CASE("progress: clear erases the line and the next update draws it at once") {
    FakeTerminal fake;
    cli::Progress progress{"reading x", 100'000'000, true, fake.terminal()};
    progress.clear();
    CHECK(fake.take().empty());  // nothing on screen, nothing to erase
    progress.update(1'000'000);
    fake.take();
    progress.clear();
    CHECK(fake.take() == "\r\x1b[K");
    fake.now_ns = 10 * kMs;
    progress.update(2'000'000);
    CHECK_THAT(fake.take(), Catch::Contains("2%"));
    progress.finish();
    CHECK(fake.take() == "\r\x1b[K");
    fake.now_ns = 1'000 * kMs;
    progress.update(3'000'000);
    progress.finish();
    CHECK(fake.take().empty());  // finished for good
}

TEST_CASE("progress: disabled, it writes nothing; destroyed, it erases its line") {
    FakeTerminal fake;
    {
        cli::Progress progress{"reading x", 100'000'000, false, fake.terminal()};
        progress.update(1'000'000);
    }
    CHECK(fake.take().empty());
    {
        cli::Progress progress{"reading x", 100'000'000, true, fake.terminal()};
        progress.update(1'000'000);
        fake.take();
    }
    CHECK(fake.take() == "\r\x1b[K");
}

TEST_CASE("progress: wanted for 16 MiB or more on a terminal, unless turned off") {
    constexpr std::uint64_t kMiB = 1 << 20;
    CHECK(cli::Progress::wanted(16 * kMiB, false, true));
    CHECK_FALSE(cli::Progress::wanted(16 * kMiB - 1, false, true));
    CHECK_FALSE(cli::Progress::wanted(64 * kMiB, true, true));
    CHECK_FALSE(cli::Progress::wanted(64 * kMiB, false, false));
}

TEST_CASE(
    "summary and diff tables: a line feed, a control character or bad UTF-8 in a name "
    "stays in its row (golden)") {
    const qprof::Trace base =
        trace_of({provider("line\nfeed", 2, 1, 0), provider("tab\there", 1, 1, 0),
                  provider("bad\xff\x1b[31m", 3, 1, 0)},
                 10, {3});
    const qprof::Trace next = trace_of({provider("line\nfeed", 1, 1, 0)}, 10, {1});
    std::ostringstream out;
    cli::write_summary(base, {}, out);
    cli::write_diff({"base.qprof", base}, {"new.qprof", next}, {}, out);
    const std::string text = out.str();
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find('\t') == std::string::npos);
    CHECK(text.find('\xff') == std::string::npos);
    qprof::test::check_golden(text, "tables_escaping.approved.txt");
}
