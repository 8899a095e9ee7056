// What `qprof summarize` says about runs: the metadata under the table, the --by-process table
// (golden), and the JSON of both; command lines escaped like every other text output.
#include "cli/run_summary.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "cli/summary.hpp"
#include "json.hpp"
#include "test_support.hpp"

namespace cli = qprof::cli;
namespace json = qprof::test::json;
using qprof::RunInfo;

namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kStart = 1'795'500'000'123'000'000;  // 2026-11-24 06:00:00.123 UTC

RunInfo run_of(std::string program, std::uint32_t pid, std::vector<std::string> argv,
               std::int64_t offset_ms, std::int64_t wall_ms, std::uint64_t events) {
    RunInfo run;
    run.program = std::move(program);
    run.pid = pid;
    run.parent_pid = 100;
    run.argv = std::move(argv);
    run.working_directory = "/home/me/build";
    run.host = "builder";
    run.start_unix_ns = kStart + offset_ms * kMs;
    run.end_unix_ns = run.start_unix_ns + wall_ms * kMs;
    run.peak_rss_bytes = 25 * 1024 * 1024 + 512 * 1024;
    run.start_offset_ns = offset_ms * kMs;
    run.wall_ns = wall_ms * kMs;
    run.events = events;
    return run;
}

qprof::Trace build_trace() {
    qprof::Trace trace;
    trace.runs.push_back(run_of("toyc", 201, {"toyc", "--items", "300"}, 0, 750, 1'000'000));
    trace.runs.push_back(run_of("toyc", 202,
                                {"/usr/bin/toyc", "--items", "3000", "--threads", "4", "-Z",
                                 "profile-queries=raw", "--name", "with space"},
                                12, 2'500, 9'000'000));
    trace.runs.push_back(
        run_of("linker", 203, {"linker", "tab\there", "\x1b[31m", ""}, 2'600, 40, 12));
    trace.runs.back().peak_rss_bytes = 0;  // not known
    trace.wall_ns = 2'640 * kMs;
    trace.events = 10'000'012;
    return trace;
}

qprof::Trace single_run() {
    qprof::Trace trace;
    trace.runs.push_back(
        run_of("toyc", 201, {"toyc", "--items", "300", "-Zprofile-queries"}, 0, 750, 1'000));
    trace.program = "toyc";
    trace.pid = 201;
    trace.wall_ns = 750 * kMs;
    trace.events = 1'000;
    return trace;
}

std::string summary_text(const qprof::Trace& trace, bool json = false, bool by_process = false) {
    cli::SummaryOptions options;
    options.json = json;
    options.by_process = by_process;
    std::ostringstream out;
    cli::write_summary(trace, options, out);
    return out.str();
}

}  // namespace

TEST_CASE("--by-process: one row per process in order of start, matching the golden file") {
    qprof::test::check_golden(summary_text(build_trace(), false, true), "processes.approved.txt");
}

TEST_CASE("--by-process --json: every process with its full command line") {
    const json::Value doc = json::parse(summary_text(build_trace(), true, true));
    CHECK(doc["wall_ns"].number == 2'640 * kMs);
    const json::Value& processes = doc["processes"];
    REQUIRE(processes.items.size() == 3);
    CHECK(processes[1]["argv"].items.size() == 9);
    CHECK(processes[1]["argv"][8].text == "with space");
    CHECK(processes[2]["argv"][2].text == "\x1b[31m");
    CHECK(processes[1]["start_offset_ns"].number == 12 * kMs);
    CHECK(processes[1]["pid"].number == 202);
    CHECK(processes[1]["parent_pid"].number == 100);
    CHECK(processes[1]["host"].text == "builder");
    CHECK(processes[1]["working_directory"].text == "/home/me/build");
    CHECK(processes[1]["peak_rss_bytes"].number == 25 * 1024 * 1024 + 512 * 1024);
    CHECK(processes[1]["events"].number == 9'000'000);
}

TEST_CASE("summarize shows what the run recorded of its process, in text and JSON") {
    const std::string text = summary_text(single_run());
    CHECK_THAT(text, Catch::Contains("program: toyc (pid 201, parent 100)\n"
                                     "command: toyc --items 300 -Zprofile-queries\n"
                                     "directory: /home/me/build on host builder\n"
                                     "ran: 2026-11-24 06:00:00.123 UTC to 2026-11-24 "
                                     "06:00:00.873 UTC, peak RSS 25.5 MiB\n"));
    const json::Value doc = json::parse(summary_text(single_run(), true));
    REQUIRE(doc["runs"].items.size() == 1);
    CHECK(doc["runs"][0]["argv"][3].text == "-Zprofile-queries");
    CHECK(doc["runs"][0]["end_unix_ns"].number == static_cast<double>(kStart + 750 * kMs));
    CHECK_THAT(summary_text(build_trace()),
               Catch::Contains("processes: 3 (qprof summarize --by-process lists them)\n"));
}

TEST_CASE("a command line stays one line: arguments quoted, control characters escaped") {
    CHECK(cli::command_text({"a", "b c", "", "it's", "x\ny", "\x1b"}) ==
          "a 'b c' '' 'it'\\\\''s' 'x\\ny' '\\x1B'");
    CHECK(cli::utc_text(0) == "1970-01-01 00:00:00.000 UTC");
}
