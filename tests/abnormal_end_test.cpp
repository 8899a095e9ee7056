// Programs that end without finishing their session keep what README's "Limits" promises:
// every report after std::terminate (an exception leaving main too) and quick_exit; the raw
// stream, up to the signal, after abort() and the signals that end a process by default.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>

#include "raw_reader.hpp"
#include "test_support.hpp"
#include "trace_completion.hpp"

namespace {

// Runs the helper, killed if it is still running after 60 s.
qprof::test::CommandResult end_helper(const std::string& how, const qprof::test::TempDir& dir) {
    const std::string command =
        "timeout -s KILL 60 " + std::string(QPROF_ABNORMAL_END_HELPER) + " " + how +
        " -Z profile-queries=raw,counts -Z profile-queries-dir=" + dir.path().string();
    return qprof::test::run_command(command, dir);
}

bool ended_by(const qprof::test::CommandResult& result, int signal) {
    return result.signaled || result.status == 128 + signal;  // the shell may report either
}

// The run the raw stream holds, completed as the qprof tool completes it.
qprof::Trace raw_trace(const qprof::test::TempDir& dir, bool expect_end) {
    const std::vector<unsigned char> bytes =
        qprof::test::read_bytes(dir.path() / "profile_queries.qprof");
    qprof::detail::ReadResult read = qprof::detail::read_stream(bytes, {});
    REQUIRE_FALSE(read.foreign);
    REQUIRE(read.runs.size() == 1);
    CHECK(read.runs[0].complete == expect_end);
    return qprof::detail::complete_trace(std::move(read.runs[0].inputs));
}

void check_all_events(const qprof::Trace& trace) {
    CHECK(qprof::test::totals_of(trace, "before_end").count == 100);
    CHECK(qprof::test::totals_of(trace, "inside").hits == 100);
}

}  // namespace

TEST_CASE("an exception leaving main still writes every report") {
    qprof::test::TempDir dir;
    const auto result = end_helper("throw", dir);
    CHECK(ended_by(result, SIGABRT));
    // The standard library's own message is kept: qprof's handler runs before it.
    CHECK_THAT(result.err, Catch::Contains("leaves main"));
    const std::string counts = qprof::test::read_file(dir.path() / "profile_queries.counts.txt");
    CHECK_THAT(counts, Catch::Contains("before_end,100,") && Catch::Contains("open_at_the_end,1,"));
    check_all_events(raw_trace(dir, true));
}

TEST_CASE("std::terminate still writes every report") {
    qprof::test::TempDir dir;
    const auto result = end_helper("terminate", dir);
    CHECK(ended_by(result, SIGABRT));
    CHECK_THAT(qprof::test::read_file(dir.path() / "profile_queries.counts.txt"),
               Catch::Contains("before_end,100,"));
    check_all_events(raw_trace(dir, true));
}

TEST_CASE("quick_exit still writes every report") {
    qprof::test::TempDir dir;
    const auto result = end_helper("quick_exit", dir);
    CHECK(result.status == 4);
    CHECK_THAT(qprof::test::read_file(dir.path() / "profile_queries.counts.txt"),
               Catch::Contains("before_end,100,"));
    check_all_events(raw_trace(dir, true));
}

TEST_CASE("abort and fatal signals keep the raw stream up to the signal") {
    const auto [how, signal] = GENERATE(table<std::string, int>(
        {{"abort", SIGABRT}, {"sigint", SIGINT}, {"sigterm", SIGTERM}, {"sigkill", SIGKILL}}));
    INFO(how);
    qprof::test::TempDir dir;
    const auto started = std::chrono::steady_clock::now();
    const auto result = end_helper(how, dir);
    // A run that lost its events after about 5 s points at the handler's wait for the collector.
    INFO("the helper ran for "
         << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()
         << " s");
    CHECK(ended_by(result, signal));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "profile_queries.counts.txt"));
    check_all_events(raw_trace(dir, false));
}
