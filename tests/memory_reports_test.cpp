// -Z profile-queries-memory in every report that shows memory: qprof summarize --json of a
// saved run, the HTML report's table and columns, folded=bytes, the flame graph, and
// qprof report --folded=bytes; each gives the workload's bytes (memory_workload.hpp) exactly.
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <qprof/qprof.hpp>
#include <string>

#include "json.hpp"
#include "memory_workload.hpp"
#include "test_support.hpp"

using qprof::test::totals_of;
using namespace qprof::test::workload;

#ifdef QPROF_TOOL
TEST_CASE("memory: qprof summarize --json gives the bytes of a saved run exactly") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = memory_options();
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    run_workload(options);
    const qprof::test::CommandResult run =
        qprof::test::run_command(std::string(QPROF_TOOL) + " summarize -q --json " +
                                     (dir.path() / "profile_queries.qprof").string(),
                                 dir);
    REQUIRE(run.status == 0);
    const auto doc = qprof::test::json::parse(run.out);
    const Expected e = expected();
    auto row = [&](const std::string& provider) -> const qprof::test::json::Value& {
        for (const auto& item : doc["providers"].items) {
            if (item["provider"].text == provider) {
                return item;
            }
        }
        FAIL("no row for " << provider);
        throw std::logic_error("unreachable");
    };
    auto json_text = [](const qprof::test::json::Value& row, const std::string& prefix) {
        return row[prefix + "allocated_bytes"].text + " bytes in " +
               row[prefix + "allocations"].text + ", " + row[prefix + "retained_bytes"].text +
               " retained";
    };
    CHECK(json_text(row("inner"), "") == text(e.inner));
    CHECK(json_text(row("inner"), "self_") == text(e.inner));
    CHECK(json_text(row("nested"), "") == text(e.nested_total));
    CHECK(json_text(row("nested"), "self_") == text(e.nested_self));
    CHECK(json_text(row("outer"), "self_") == text(e.outer_self));
    CHECK(json_text(row("outer"), "") == text(e.outer_total));
}
#endif

#ifdef QPROF_TOOL
// An activity recording memory writes its memory record and then its cpu record (kind 7 after
// kind 16): both reach the live trace and a saved run's summary.
TEST_CASE("memory: an activity keeps its CPU time next to its memory") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = memory_options();
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    qprof::Trace trace;
    reset_tally();
    {
        qprof::Session session{std::move(options)};
        {
            PROFILE_ACTIVITY("memory pass");
            outer();
        }
        session.finish();
        trace = session.trace();
    }
    memo().clear();
    const auto& pass = totals_of(trace, "memory pass");
    CHECK(pass.cpu_ns > 0);
    CHECK(pass.memory_total.allocations >= 9);
    const qprof::test::CommandResult run =
        qprof::test::run_command(std::string(QPROF_TOOL) + " summarize -q --json " +
                                     (dir.path() / "profile_queries.qprof").string(),
                                 dir);
    REQUIRE(run.status == 0);
    const auto doc = qprof::test::json::parse(run.out);
    bool found = false;
    for (const auto& item : doc["providers"].items) {
        if (item["provider"].text == "memory pass") {
            found = true;
            CHECK(item["cpu_ns"].text != "null");
            CHECK(item["allocations"].text == std::to_string(pass.memory_total.allocations));
        }
    }
    CHECK(found);
}
#endif

namespace {

qprof::ReportOptions folded_bytes() {
    qprof::ReportOptions options;
    options.folded_bytes = true;
    return options;
}

// The data-value of the provider table's cell in the row of `provider`, column `sort`.
std::string table_value(const std::string& page, const std::string& provider,
                        const std::string& sort) {
    const std::string table = page.substr(page.find("<table id=\"provider-table\">"));
    const std::string heads = table.substr(0, table.find("</thead>"));
    const std::size_t sort_at = heads.find("data-sort=\"" + sort + "\"");
    REQUIRE(sort_at != std::string::npos);
    std::size_t column = 0;  // the headers closed before it
    for (std::size_t at = heads.find("</th>"); at < sort_at; at = heads.find("</th>", at + 1)) {
        ++column;
    }
    std::size_t cell = table.find("<a href=\"#\">" + provider + "</a>");
    REQUIRE(cell != std::string::npos);
    for (std::size_t next = 0; next < column; ++next) {
        cell = table.find("<td", cell + 1);
    }
    const std::size_t value = table.find("data-value=\"", cell) + 12;
    return table.substr(value, table.find('"', value) - value);
}

// The last measured run's folded stacks by self allocated bytes, on a thread of that name.
std::string folded_bytes_text(const std::string& thread) {
    const Expected e = expected();
    const Calls& nested = tally().nested;  // outermost call first
    return thread + ";outer " + std::to_string(e.outer_self.allocated_bytes) + "\n" + thread +
           ";outer;inner " + std::to_string(e.inner.allocated_bytes) + "\n" + thread +
           ";outer;nested " + std::to_string(nested[0].allocated_bytes) + "\n" + thread +
           ";outer;nested;nested " + std::to_string(nested[1].allocated_bytes) + "\n" + thread +
           ";outer;nested;nested;nested " + std::to_string(nested[2].allocated_bytes) + "\n";
}

}  // namespace

TEST_CASE("memory: the HTML report's table, statistics and columns give the bytes") {
    const qprof::Trace trace = run_workload(memory_options());
    const Expected e = expected();
    const std::string page = qprof::test::report_text("html", trace);
    CHECK(table_value(page, "inner", "alloc") == std::to_string(e.inner.allocated_bytes));
    CHECK(table_value(page, "outer", "alloc") == std::to_string(e.outer_total.allocated_bytes));
    CHECK(table_value(page, "outer", "self-alloc") == std::to_string(e.outer_self.allocated_bytes));
    CHECK(table_value(page, "outer", "allocs") == "9");
    CHECK(table_value(page, "nested", "retained") == std::to_string(e.nested_total.retained_bytes));
    CHECK(table_value(page, "outer", "self-retained") ==
          std::to_string(e.outer_self.retained_bytes));
    CHECK_THAT(page, Catch::Contains("\"memory_recorded\":true"));
    CHECK_THAT(page,
               Catch::Contains(",\"alloc_bytes\":" + std::to_string(e.outer_total.allocated_bytes) +
                               ",\"allocs\":9,"));
    CHECK_THAT(page, Catch::Contains("\"alloc\":") && Catch::Contains("\"retained\":"));
    // Without memory, none of it (the viewer's scripts, which know the names, left out).
    const std::string plain = qprof::test::without_viewer(
        qprof::test::report_text("html", run_workload(qprof::test::recording_options())));
    CHECK_THAT(plain, !Catch::Contains("memory_recorded") && !Catch::Contains("alloc_bytes") &&
                          !Catch::Contains("data-sort=\"alloc\""));
}

TEST_CASE("memory: folded=bytes values each stack by its self allocated bytes, exactly") {
    const qprof::Trace trace = run_workload(memory_options());
    CHECK(qprof::test::report_text("folded", trace, folded_bytes()) ==
          folded_bytes_text(trace.threads.at(0).name));
}

TEST_CASE("memory: the flame graph carries each frame's bytes and offers the switch") {
    const std::string page = qprof::test::report_text("flamegraph", run_workload(memory_options()));
    const Expected e = expected();
    CHECK_THAT(page, Catch::Contains("id=\"weight-bytes\""));
    // The root, the thread and outer: the workload is outer and what it asked.
    const std::string outer = std::to_string(e.outer_total.allocated_bytes);
    CHECK_THAT(page,
               Catch::Contains("\"total_bytes\":[" + outer + "," + outer + "," + outer + ","));
    const std::string plain = qprof::test::without_viewer(
        qprof::test::report_text("flamegraph", run_workload(qprof::test::recording_options())));
    CHECK_THAT(plain, !Catch::Contains("weight-bytes") && !Catch::Contains("total_bytes"));
}

#ifdef QPROF_TOOL
TEST_CASE("memory: qprof report --folded=bytes of a saved run; a run without memory fails") {
    qprof::test::TempDir dir;
    std::string expected_folded;  // from the run with memory
    for (const bool memory : {true, false}) {
        qprof::SessionOptions options =
            memory ? memory_options() : qprof::test::recording_options();
        options.reporters = {"raw"};
        options.output_dir = dir.path().string();
        options.name_pattern = memory ? "with" : "without";
        run_workload(options);
        if (memory) {
            expected_folded = folded_bytes_text("main");
        }
    }
    memo().clear();
    const std::string report = std::string(QPROF_TOOL) + " report -q --reporters=folded " +
                               "--folded=bytes -o " + dir.path().string() + " ";
    const qprof::test::CommandResult with =
        qprof::test::run_command(report + (dir.path() / "with.qprof").string(), dir);
    CHECK(with.status == 0);
    std::ifstream written{dir.path() / "profile_queries.folded"};
    CHECK(std::string{std::istreambuf_iterator<char>{written}, {}} == expected_folded);
    const qprof::test::CommandResult without =
        qprof::test::run_command(report + (dir.path() / "without.qprof").string(), dir);
    CHECK(without.status != 0);
    CHECK_THAT(without.err, Catch::Contains("-Z profile-queries-memory"));
}
#endif
