// Activities with an argument (PROFILE_ACTIVITY_ARG) and the thread CPU time of every
// activity: recorded, shown by the reporters, and carried through the raw stream.
#include <time.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "json.hpp"
#include "raw_reader.hpp"
#include "test_support.hpp"
#include "trace_completion.hpp"

namespace {

namespace json = qprof::test::json;

int g_names_made = 0;

std::uint64_t thread_cpu_ns() {
    timespec cpu{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    return static_cast<std::uint64_t>(cpu.tv_sec) * 1'000'000'000u +
           static_cast<std::uint64_t>(cpu.tv_nsec);
}

std::string unit_name(int unit) {
    ++g_names_made;
    return "unit " + std::to_string(unit);
}

void codegen(int units) {
    PROFILE_ACTIVITY("code generation");
    for (int unit = 0; unit < units; ++unit) {
        PROFILE_ACTIVITY_ARG("codegen unit", unit_name(unit));
        PROFILE_QUERY(codegen, unit);
    }
}

qprof::Trace recorded(bool keys, int units = 2) {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = keys;
    return qprof::test::trace_of([units] { codegen(units); }, options);
}

// Each node's shown name, in post-order.
std::vector<std::string> names(const qprof::Trace& trace) {
    std::vector<std::string> shown;
    const qprof::ThreadTrace& thread = trace.threads.at(0);
    for (std::uint32_t n = 0; n < thread.nodes.size(); ++n) {
        shown.push_back(trace.name_of(thread, n));
    }
    return shown;
}

}  // namespace

TEST_CASE("an activity's argument names its run, keys recorded or not") {
    const bool keys = GENERATE(false, true);
    const qprof::Trace trace = recorded(keys);
    const std::vector<std::string> expected{"codegen", "codegen unit(unit 0)", "codegen",
                                            "codegen unit(unit 1)", "code generation"};
    CHECK(names(trace) == expected);
    // The query's key only when keys are recorded: the argument is not a query key.
    CHECK(trace.key_of(trace.threads[0], 0) == (keys ? "0" : ""));
    CHECK(qprof::test::tree_text(trace) ==
          "@code generation(@codegen unit(codegen) @codegen unit(codegen))");
}

TEST_CASE("an activity's argument is evaluated only while recording") {
    g_names_made = 0;
    codegen(3);
    CHECK(g_names_made == 0);
    recorded(false, 3);
    CHECK(g_names_made == 3);
}

TEST_CASE("reporters show an activity's argument") {
    const qprof::Trace trace = recorded(false);
    const std::string chrome = qprof::test::report_text("chrome", trace);
    CHECK_THAT(chrome, Catch::Contains(R"("name":"codegen unit","cat":"activity")") &&
                           Catch::Contains(R"("args":{"arg":"unit 1")"));
    CHECK(qprof::test::count_of(chrome, "\"key\"") == 0);  // queries' keys stay out

    qprof::ReportOptions options;
    CHECK(qprof::test::report_text("folded", trace, options).find("(unit") == std::string::npos);
    options.folded_args = true;
    CHECK_THAT(qprof::test::report_text("folded", trace, options),
               Catch::Contains("main;code_generation;codegen_unit(unit_0);codegen 1000000\n"));

    const std::string html = qprof::test::report_text("html", trace);
    CHECK_THAT(html, Catch::Contains("codegen unit(unit 0)</span> \u00b7 3.00 ms"));
    CHECK_THAT(qprof::test::report_text("keys", trace),
               Catch::Contains("codegen unit\tunit 0\t1\t0\t"));
}

namespace {

// a.o holding a.o again (a re-entered pass), then b.o; a.o once more on a thread of its own.
// An argument longer than 127 chars: its key record holds a count and the chars, more words
// than a pending key keeps in place (totals_builder.hpp).
const std::string kLongUnit =
    "/home/build/.cache/bazel/_bazel_build/4f0c1e2d9a8b7c6d5e4f3a2b1c0d9e8f/"
    "execroot/__main__/bazel-out/k8-opt/bin/external/library/b.o";

void units_with_reentry() {
    {
        PROFILE_ACTIVITY_ARG("codegen unit", "a.o");
        PROFILE_QUERY(codegen, 0);
        PROFILE_ACTIVITY_ARG("codegen unit", "a.o");
        PROFILE_QUERY(codegen, 1);
    }
    { PROFILE_ACTIVITY_ARG("codegen unit", kLongUnit); }
    std::thread{[] { PROFILE_ACTIVITY_ARG("codegen unit", "a.o"); }}.join();
}

// The trace's rows per activity and argument as "activity(argument) runs total_ns cpu_ns".
std::vector<std::string> argument_rows(const qprof::Trace& trace) {
    std::vector<std::string> rows;
    for (const qprof::ArgumentTotals& row : trace.arguments) {
        rows.push_back(trace.name_of(row) + " " + std::to_string(row.runs) + " " +
                       std::to_string(row.total_ns) + " " + std::to_string(row.cpu_ns));
    }
    return rows;
}

}  // namespace

TEST_CASE("per argument: runs and times, a re-entered run counted once, nodes kept or not") {
    const bool keys = GENERATE(false, true);
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = keys;
    const qprof::Trace with_nodes = qprof::test::trace_of(units_with_reentry, options);
    options.reporters = {"counts"};  // needs no nodes: the collector keeps totals only
    options.output_dir = dir.path().string();
    const qprof::Trace totals_only = qprof::test::trace_of(units_with_reentry, options);
    REQUIRE(totals_only.threads.at(0).nodes.empty());
    // The outer a.o runs from the 1st clock read to the 8th, 7 ms, its CPU clock half as fast
    // (3 ms counted); the a.o inside it (3 ms) counts in runs only; the worker's a.o 1 ms.
    const std::vector<std::string> expected{"codegen unit(a.o) 3 8000000 3000000",
                                            "codegen unit(" + kLongUnit + ") 1 1000000 0"};
    CHECK(argument_rows(with_nodes) == expected);
    CHECK(argument_rows(totals_only) == expected);
    CHECK(qprof::test::totals_of(with_nodes, "codegen unit").total_ns == 9'000'000);
}

TEST_CASE("every activity records its thread CPU time; a pass that sleeps shows wall >> CPU") {
    qprof::SessionOptions options = qprof::test::recording_options();
    qprof::Session session{options};
    {
        PROFILE_ACTIVITY("waiting pass");
        std::this_thread::sleep_for(std::chrono::milliseconds{60});
    }
    {
        PROFILE_ACTIVITY("busy pass");
        const std::uint64_t until = thread_cpu_ns() + 20'000'000;  // 20 ms of CPU, however long
        volatile std::uint64_t spins = 0;
        while (thread_cpu_ns() < until) {
            spins = spins + 1;
        }
    }
    session.finish();
    const qprof::Trace& trace = session.trace();
    const qprof::ProviderTotals& waiting = qprof::test::totals_of(trace, "waiting pass");
    const qprof::ProviderTotals& busy = qprof::test::totals_of(trace, "busy pass");
    CHECK(waiting.total_ns >= 60'000'000);
    CHECK(waiting.cpu_ns >= 0);
    CHECK(waiting.cpu_ns < waiting.total_ns / 4);
    CHECK(busy.cpu_ns >= 20'000'000);
    // Two clocks: the thread's CPU clock, and the cycle counter in nanoseconds by the rate
    // calibrated at the start, a few parts per million off (20 ms of CPU once read 37 ns more
    // than its wall time). A thousandth is far below what a sleeping pass leaves.
    CHECK(busy.cpu_ns <= busy.total_ns + busy.total_ns / 1000);
    const qprof::ThreadTrace& thread = trace.threads.at(0);
    REQUIRE(thread.activity_cpu.size() == 2);
    CHECK(thread.cpu_ns(0) == waiting.cpu_ns);
    CHECK(thread.cpu_ns(1) == busy.cpu_ns);
}

TEST_CASE("an activity's CPU time is in the summary reporters, exact under the manual clock") {
    const qprof::Trace trace = recorded(false);
    // The manual CPU clock reads half the manual clock without moving it. A unit reads the
    // clock at entry, the query twice, and at exit: 3 ms of wall time, and its CPU reads lie
    // between the first two reads and the last two, 2 ms of manual time apart: 1 ms of CPU.
    const qprof::ProviderTotals& unit = qprof::test::totals_of(trace, "codegen unit");
    CHECK(unit.total_ns == 6'000'000);
    CHECK(unit.cpu_ns == 2'000'000);
    CHECK(qprof::test::totals_of(trace, "codegen").cpu_ns == 0);  // queries have none
    CHECK_THAT(qprof::test::report_text("chrome", trace),
               Catch::Contains(R"("tdur":1000.000,"args":{"arg":"unit 0"})"));
}
