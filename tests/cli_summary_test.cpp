// qprof summarize: the order and filtering of its rows, its table against golden files, and
// its JSON; names that would break a table stay in their row.
#include <catch2/catch.hpp>
#include <map>
#include <sstream>

#include "cli/args.hpp"
#include "cli/diff.hpp"
#include "cli/summary.hpp"
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
    names.reserve(rows.size());
    for (const cli::SummaryRow& row : rows) {
        names.push_back(row.provider->provider);
    }
    return names;
}

std::vector<std::string> summary_names(const std::vector<std::string>& words) {
    const cli::ParsedArgs args = parse(cli::summarize_command(), words);
    return row_names(cli::summary_rows(summary_trace(), cli::summary_options(args)));
}

// The same run with memory: type_of allocated 8 KiB of its own, optimized_mir 64 KiB and
// 32 KiB more in the queries it asked, parsing 2 KiB and 100 KiB in its callees.
qprof::Trace memory_trace() {
    qprof::Trace trace = summary_trace();
    trace.memory_recorded = true;
    qprof::test::set_memory(trace.providers[0], 2, 3, 100);   // parsing
    qprof::test::set_memory(trace.providers[1], 8, 1'234);    // type_of
    qprof::test::set_memory(trace.providers[3], 64, 20, 32);  // optimized_mir
    return trace;
}

std::vector<std::string> memory_names(const std::vector<std::string>& words) {
    const cli::ParsedArgs args = parse(cli::summarize_command(), words);
    return row_names(cli::summary_rows(memory_trace(), cli::summary_options(args)));
}

}  // namespace

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

TEST_CASE("summary: the table matches the golden file, with --args a row per argument") {
    qprof::Trace trace = summary_trace();
    trace.providers[0].count = 3;  // parsing, over two files
    trace.arguments = {{.activity = 0, .argument = "main.rs", .runs = 2, .total_ns = 2 * kMs},
                       {.activity = 0, .argument = "lib.rs", .runs = 1, .total_ns = kMs / 2}};
    cli::SummaryOptions options;
    options.arguments = true;
    std::ostringstream out;
    cli::write_summary(trace, options, out);
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

TEST_CASE("summary: memory columns, self then total, only for a run that recorded memory") {
    std::ostringstream out;
    cli::write_summary(memory_trace(), {}, out);
    qprof::test::check_golden(out.str(), "summarize_memory.approved.txt");
    std::ostringstream plain;
    cli::write_summary(summary_trace(), {}, plain);
    CHECK(plain.str().find("alloc") == std::string::npos);
}

TEST_CASE("summary: --sort by each memory column, largest first") {
    using Names = std::vector<std::string>;
    CHECK(memory_names({"--sort=self-alloc", "t"}) ==
          Names{"optimized_mir", "type_of", "parsing", "def_span", "unused"});
    CHECK(memory_names({"--sort=total-alloc", "t"}) ==
          Names{"parsing", "optimized_mir", "type_of", "def_span", "unused"});
    CHECK(memory_names({"--sort=self-allocs", "t"})[0] == "type_of");
    CHECK(memory_names({"--sort=total-allocs", "t"})[0] == "type_of");
    CHECK(memory_names({"--sort=self-retained", "t"})[0] == "optimized_mir");
    CHECK(memory_names({"--sort=total-retained", "t"})[0] == "parsing");
}

TEST_CASE("summary: --sort by memory of a run without memory names the flag to record it") {
    const cli::ParsedArgs args = parse(cli::summarize_command(), {"--sort=self-alloc", "t"});
    CHECK_THROWS_WITH(cli::check_sort(summary_trace(), cli::summary_options(args)),
                      "qprof summarize: '--sort=self-alloc' sorts by memory, but this run did not "
                      "record memory: record it with -Z profile-queries-memory, or sort by another "
                      "key. See 'qprof summarize --help'.");
    CHECK_NOTHROW(cli::check_sort(memory_trace(), cli::summary_options(args)));
    const cli::ParsedArgs by_time = parse(cli::summarize_command(), {"--sort=total", "t"});
    CHECK_NOTHROW(cli::check_sort(summary_trace(), cli::summary_options(by_time)));
}

TEST_CASE("summarize --args: a row per activity and argument, in the table and the JSON") {
    qprof::Trace trace;
    {
        qprof::test::ManualClock clock;  // every clock read 1 ms later
        qprof::Session session{qprof::test::recording_options()};
        for (const char* unit : {"cgu.0", "cgu.1", "cgu.0"}) {
            PROFILE_ACTIVITY_ARG("codegen unit", unit);
            PROFILE_QUERY(codegen, 0);
        }
        { PROFILE_ACTIVITY("linking"); }
        session.finish();
        trace = session.trace();
    }
    const auto summary = [&](const std::vector<std::string>& words) {
        const cli::ParsedArgs args = parse(cli::summarize_command(), words);
        std::ostringstream out;
        cli::write_summary(trace, cli::summary_options(args), out);
        return out.str();
    };
    const std::string text = summary({"--args", "run.qprof"});
    CHECK_THAT(text, Catch::Contains("activity      argument  runs  total ms  cpu ms   share\n"
                                     "codegen unit  cgu.0        2     6.000"));
    CHECK_THAT(text, Catch::Contains("66.7 %\ncodegen unit  cgu.1        1     3.000"));
    CHECK_THAT(text, Catch::Contains("33.3 %\n"));
    CHECK(summary({"run.qprof"}).find("argument") == std::string::npos);  // asked for only
    const json::Value document = json::parse(summary({"--args", "--json", "run.qprof"}));
    const json::Value& rows = document["arguments"];
    REQUIRE(rows.items.size() == 2);
    CHECK(rows[0]["activity"].text == "codegen unit");
    CHECK(rows[0]["argument"].text == "cgu.0");
    CHECK(rows[0]["runs"].number == 2);
    CHECK(rows[0]["total_ns"].number == 6'000'000);
    CHECK(rows[1]["argument"].text == "cgu.1");
}

TEST_CASE("summarize --args counts a run re-entered inside the same pass once") {
    qprof::Trace trace;
    {
        qprof::test::ManualClock clock;  // every clock read 1 ms later
        qprof::Session session{qprof::test::recording_options()};
        PROFILE_ACTIVITY_ARG("codegen unit", "cgu.0");      // [1, 4] ms
        { PROFILE_ACTIVITY_ARG("codegen unit", "cgu.0"); }  // [2, 3] ms: inside it
        session.finish();
        trace = session.trace();
    }
    const cli::ParsedArgs args = parse(cli::summarize_command(), {"--args", "--json", "r"});
    std::ostringstream out;
    cli::write_summary(trace, cli::summary_options(args), out);
    const json::Value document = json::parse(out.str());
    const json::Value& rows = document["arguments"];
    REQUIRE(rows.items.size() == 1);
    CHECK(rows[0]["runs"].number == 2);
    CHECK(rows[0]["total_ns"].number == 3'000'000);  // the outer run's; 4 ms if summed
}

TEST_CASE("summary: sizes and counters get a table each, and JSON arrays") {
    qprof::Trace trace = summary_trace();
    trace.sizes = {{"debug info", 2'048, 2}, {"object file", 1'234'567, 3}};
    trace.counters = {{"queue", 10, -3, 12}, {"live nodes", 1'200, 0, 45'678}};
    std::ostringstream out;
    cli::write_summary(trace, {}, out);
    qprof::test::check_golden(out.str(), "summarize_measures.approved.txt");

    std::ostringstream json_out;
    cli::SummaryOptions options;
    options.json = true;
    cli::write_summary(trace, options, json_out);
    const json::Value doc = json::parse(json_out.str());
    REQUIRE(doc["sizes"].items.size() == 2);
    CHECK(doc["sizes"][0]["name"].text == "object file");  // most bytes first
    CHECK(doc["sizes"][0]["bytes"].number == 1'234'567);
    CHECK(doc["sizes"][0]["records"].number == 3);
    REQUIRE(doc["counters"].items.size() == 2);
    CHECK(doc["counters"][0]["name"].text == "live nodes");  // by name
    CHECK(doc["counters"][1]["min"].number == -3);
    CHECK(doc["counters"][1]["max"].number == 12);
    CHECK(doc["counters"][1]["samples"].number == 10);

    std::ostringstream none;
    options.json = true;
    cli::write_summary(summary_trace(), options, none);
    CHECK(json::parse(none.str())["sizes"].items.empty());
}

namespace {

// link runs 5 ms (every clock read 1 ms): a 1 ms write_object run, then a 1 ms wait for other
// threads ("join workers"), and 3 ms of its own work around them.
qprof::Trace run_with_a_wait() {
    return qprof::test::trace_of([] {
        PROFILE_QUERY(link, 0);
        { PROFILE_QUERY(write_object, 1); }
        PROFILE_WAIT("join workers");
    });
}

}  // namespace

TEST_CASE("summary: self time is work, a wait's time is never in it, as in diff and the HTML") {
    const qprof::Trace run = run_with_a_wait();
    const qprof::ProviderTotals& wait = qprof::test::totals_of(run, "join workers");
    REQUIRE(wait.self_ns == kMs);  // recorded as self time of a wait
    REQUIRE(wait.blocked_self_ns == kMs);

    cli::SummaryOptions options;
    options.json = true;
    std::ostringstream out;
    cli::write_summary(run, options, out);
    const json::Value doc = json::parse(out.str());
    CHECK(doc["total_self_ns"].number == 4 * kMs);  // link's 3 ms and write_object's 1 ms
    std::map<std::string, const json::Value*> rows;
    for (const json::Value& row : doc["providers"].items) {
        rows[row["provider"].text] = &row;
    }
    REQUIRE(rows.size() == 3);
    CHECK((*rows.at("join workers"))["self_ns"].number == 0);
    CHECK((*rows.at("join workers"))["self_percent"].number == 0);
    CHECK((*rows.at("join workers"))["blocked_ns"].number == kMs);  // shown as waiting instead
    CHECK((*rows.at("link"))["self_ns"].number == 3 * kMs);
    CHECK((*rows.at("link"))["self_percent"].text == "75");

    // The same self time as qprof diff's and the HTML report's statistics, provider by provider.
    std::vector<qprof::detail::Preorder> orders;
    for (const qprof::ThreadTrace& thread : run.threads) {
        orders.emplace_back(thread);
    }
    std::map<std::string, std::int64_t> html_self;
    for (const auto& stats : qprof::detail::html::provider_stats(run, orders)) {
        html_self[run.providers[stats.provider].provider] = stats.self_ns;
    }
    for (const cli::DiffRow& diff : cli::diff_rows(run, run, cli::DiffSort::name)) {
        INFO(diff.provider);
        CHECK((*rows.at(diff.provider))["self_ns"].number == diff.base_self_ns);
        CHECK((*rows.at(diff.provider))["self_ns"].number == html_self.at(diff.provider));
    }

    // The table: the wait's row has no self time and sorts last by it.
    std::ostringstream table;
    cli::write_summary(run, {}, table);
    const std::vector<cli::SummaryRow> sorted = cli::summary_rows(run, {});
    REQUIRE(sorted.size() == 3);
    CHECK(sorted[0].provider->provider == "link");
    CHECK(sorted[1].provider->provider == "write_object");
    CHECK(sorted[2].provider->provider == "join workers");
    CHECK_THAT(table.str(), Catch::Contains("\njoin workers    0.000   0.0 %     1.000"));
}
