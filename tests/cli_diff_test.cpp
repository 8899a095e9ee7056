// qprof diff: providers matched by name and kind, sorting, noise, and the table, JSON and
// HTML page against golden files.
#include <catch2/catch.hpp>
#include <map>
#include <sstream>

#include "cli/args.hpp"
#include "cli/diff.hpp"
#include "cli_traces.hpp"
#include "html_stats.hpp"
#include "json.hpp"
#include "test_support.hpp"

namespace cli = qprof::cli;
namespace json = qprof::test::json;
using qprof::test::activity;
using qprof::test::kMs;
using qprof::test::parse;
using qprof::test::provider;
using qprof::test::trace_of;

namespace {

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

}  // namespace

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
    join_base.blocked_ns = join_base.blocked_self_ns = 6 * kMs;  // waiting, not work
    qprof::ProviderTotals join_new = provider("join workers", 1, 1, 0);
    join_new.blocked_ns = join_new.blocked_self_ns = 1 * kMs;
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
    CHECK_THAT(page, Catch::Contains("prefers-color-scheme: dark"));  // the common theme
    CHECK_THAT(page, Catch::Contains("qv.sortableTable"));            // the common base
    CHECK_THAT(page, !Catch::Contains("<script>alert"));
    CHECK_THAT(page, Catch::Contains("base &amp; old.qprof"));
    // The links name the run whose report they open, and where they expect it.
    CHECK_THAT(page,
               Catch::Contains("<table id=\"diff-table\" data-report=\"profile_queries.html\">"));
    CHECK_THAT(page, Catch::Contains("the report of the new run (<code>new.qprof</code>)"));
    CHECK_THAT(page, Catch::Contains("noise: changes under 5 %"));
    qprof::test::check_golden(qprof::test::without_viewer(page), "diff.approved.html");
}

TEST_CASE("diff: the HTML page holds the --json document, safe inside its <script>") {
    const std::string page = diff_output(cli::DiffFormat::html);
    const std::string open = "<script type=\"application/json\" id=\"qprof-diff\">";
    const std::size_t start = page.find(open);
    REQUIRE(start != std::string::npos);
    const std::size_t end = page.find("</script>", start);
    REQUIRE(end != std::string::npos);
    const std::string payload = page.substr(start + open.size(), end - start - open.size());
    CHECK(payload == diff_output(cli::DiffFormat::json));
    CHECK_THAT(payload, !Catch::Contains("<"));  // '<' is \u003c, so no </script> ends it early
    const json::Value doc = json::parse(payload);
    CHECK(doc["providers"][2]["provider"].text == "typeck");
}

namespace {

// type_of allocated 8 KiB of its own in base and 24 KiB in new; typeck 4 KiB in base only;
// only base recorded memory for the others (new's count 0).
std::pair<qprof::Trace, qprof::Trace> memory_runs() {
    qprof::Trace base = diff_base();
    qprof::Trace next = diff_new();
    base.memory_recorded = next.memory_recorded = true;
    qprof::test::set_memory(base.providers[0], 8, 10);  // type_of
    qprof::test::set_memory(next.providers[0], 24, 30);
    qprof::test::set_memory(base.providers[1], 4, 2);  // typeck
    return {std::move(base), std::move(next)};
}

}  // namespace

TEST_CASE("diff: self memory and its change when the runs recorded memory (golden)") {
    const auto [base, next] = memory_runs();
    const std::vector<cli::DiffRow> rows = cli::diff_rows(base, next, cli::DiffSort::alloc_change);
    REQUIRE(rows.size() == 7);
    CHECK(rows[0].provider == "type_of");  // +16 KiB
    CHECK(rows[0].base_self_allocated == 8 * 1024);
    CHECK(rows[0].allocated_change == 16 * 1024);
    CHECK(rows[0].allocations_change == 20);
    CHECK(rows[0].retained_change == 4 * 1024);
    CHECK(rows[1].provider == "typeck");  // -4 KiB
    CHECK(rows[1].allocated_change == -4 * 1024);
    std::ostringstream text;
    cli::write_diff({"base.qprof", base}, {"new.qprof", next},
                    {cli::DiffSort::change, cli::DiffFormat::text}, text);
    qprof::test::check_golden(text.str(), "diff_memory.approved.txt");
    std::ostringstream out;
    cli::write_diff({"base.qprof", base}, {"new.qprof", next},
                    {cli::DiffSort::alloc_change, cli::DiffFormat::json}, out);
    const json::Value doc = json::parse(out.str());
    CHECK(doc["memory"].boolean);
    const json::Value& type_of = doc["providers"][0];
    CHECK(type_of["base_self_allocated_bytes"].text == "8192");
    CHECK(type_of["new_self_allocated_bytes"].text == "24576");
    CHECK(type_of["allocated_change_bytes"].text == "16384");
    CHECK(type_of["allocations_change"].text == "20");
    CHECK(type_of["retained_change_bytes"].text == "4096");
    CHECK(cli::diff_options(parse(cli::diff_command(), {"--sort=alloc-change", "a", "b"})).sort ==
          cli::DiffSort::alloc_change);
}

TEST_CASE("diff: a run without memory shows none, not zero: \"—\" and null") {
    auto [base, next] = memory_runs();
    next.memory_recorded = false;
    const std::vector<cli::DiffRow> rows = cli::diff_rows(base, next, cli::DiffSort::alloc_change);
    // No change to sort by: rows in name order.
    const cli::DiffRow& type_of = rows.at(5);
    REQUIRE(type_of.provider == "type_of");
    CHECK(type_of.base_self_allocated == 8 * 1024);
    CHECK_FALSE(type_of.new_self_allocated.has_value());
    CHECK_FALSE(type_of.allocated_change.has_value());
    std::ostringstream text;
    cli::write_diff({"base.qprof", base}, {"new.qprof", next},
                    {cli::DiffSort::name, cli::DiffFormat::text}, text);
    std::string type_of_line;
    for (std::istringstream lines{text.str()}; std::getline(lines, type_of_line);) {
        if (type_of_line.starts_with("type_of ")) {
            break;
        }
    }
    std::vector<std::string> cells;  // the last five: the memory columns
    for (std::istringstream words{type_of_line}; words >> cells.emplace_back();) {
    }
    cells.pop_back();
    REQUIRE(cells.size() > 5);
    CHECK(std::vector(cells.end() - 5, cells.end()) ==
          std::vector<std::string>{"8.0", "\u2014", "\u2014", "\u2014", "\u2014"});
    std::ostringstream out;
    cli::write_diff({"base.qprof", base}, {"new.qprof", next},
                    {cli::DiffSort::name, cli::DiffFormat::json}, out);
    const json::Value doc = json::parse(out.str());
    for (const json::Value& row : doc["providers"].items) {
        INFO(row["provider"].text);
        CHECK(row["base_self_allocated_bytes"].kind == json::Kind::number);
        for (const char* field : {"new_self_allocated_bytes", "allocated_change_bytes",
                                  "allocations_change", "retained_change_bytes"}) {
            CHECK(row[field].kind == json::Kind::null);
        }
    }
}

TEST_CASE("diff: runs without memory have no memory columns nor fields") {
    CHECK(diff_output(cli::DiffFormat::text).find("alloc") == std::string::npos);
    CHECK(diff_output(cli::DiffFormat::json).find("alloc") == std::string::npos);
}

TEST_CASE("diff labels a region as a region, in the table and the JSON") {
    qprof::ProviderTotals region = activity("eval: load", 3);
    region.is_region = true;
    const qprof::Trace base = trace_of({region}, 5, {});
    region.self_ns = 4 * kMs;
    region.total_ns = 4 * kMs;
    const qprof::Trace next = trace_of({region}, 5, {});
    std::ostringstream text;
    cli::write_diff({"base.qprof", base}, {"new.qprof", next},
                    {cli::DiffSort::change, cli::DiffFormat::text}, text);
    CHECK_THAT(text.str(), Catch::Contains("eval: load (region)"));
    std::ostringstream json_out;
    cli::write_diff({"base.qprof", base}, {"new.qprof", next},
                    {cli::DiffSort::change, cli::DiffFormat::json}, json_out);
    const json::Value row = json::parse(json_out.str())["providers"].items.at(0);
    CHECK(row["region"].boolean);
    CHECK(row["activity"].boolean);
}

namespace {

// typeck runs 7 ms: 2 of its own around a 5 ms wait for typeck, which holds a 1 ms type_of run
// and another 1 ms wait for typeck (every clock read 1 ms). Work: typeck 2 ms, type_of 1 ms.
qprof::Trace waiting_run() {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    {
        PROFILE_QUERY(typeck, 0);
        PROFILE_WAIT("typeck");
        { PROFILE_QUERY(type_of, 1); }
        PROFILE_WAIT("typeck");
    }
    session.finish();
    return session.trace();
}

}  // namespace

TEST_CASE("diff: self time is the HTML statistics' self time of work, waits never in it") {
    const qprof::Trace run = waiting_run();
    std::vector<qprof::detail::Preorder> orders;
    for (const qprof::ThreadTrace& thread : run.threads) {
        orders.emplace_back(thread);
    }
    std::map<std::string, qprof::detail::html::ProviderStats> stats;  // by provider name
    for (const auto& s : qprof::detail::html::provider_stats(run, orders)) {
        stats[run.providers[s.provider].provider] = s;
    }
    const std::vector<cli::DiffRow> rows = cli::diff_rows(run, run, cli::DiffSort::name);
    REQUIRE(rows.size() == 2);
    for (const cli::DiffRow& row : rows) {
        INFO(row.provider);
        CHECK(row.base_self_ns == stats.at(row.provider).self_ns);
        CHECK(row.new_self_ns == stats.at(row.provider).self_ns);
    }
    REQUIRE(rows[1].provider == "typeck");
    // typeck's self (6 ms) less its waits' self (4 ms), not less their time (5 ms).
    CHECK(rows[1].base_self_ns == 2 * kMs);
    // Its waits: the inner one inside the outer counts once, as the statistics count it.
    const qprof::ProviderTotals& typeck = qprof::test::totals_of(run, "typeck");
    CHECK(typeck.self_ns == 6 * kMs);
    CHECK(typeck.blocked_ns == 5 * kMs);
    CHECK(typeck.blocked_self_ns == 4 * kMs);
    CHECK(stats.at("typeck").wait_ns == 5 * kMs);
}
