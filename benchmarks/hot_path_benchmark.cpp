// The hot path against its budgets (docs/architecture.md), all in one run
// so that every figure is compared with the clock floor measured on the same machine state:
//
//   floor/read_tsc_x2        two bare clock reads, the least a timed scope can cost
//   enabled/query_scope      { PROFILE_QUERY(...); }   <= 1.10 x floor
//   enabled/query_hit        PROFILE_QUERY_HIT(...);   <= 3 ns
//   disabled/...             the same macros with no session recording: <= 1 ns
//
//   $ ./hot_path_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The enabled benchmarks record into a session whose collector recycles the chunks unread
// (qprof::testing::session_without_trace, no reporter), so memory stays flat however long they run.
//
// Two tables follow the usual output: the budgets checked against real time, then the same
// against the thread's CPU time, which on a loaded machine separates the recorder's own cost
// from the time the thread spent waiting for a core.
#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>
#include <optional>
#include <qprof/detail/clock.hpp>
#include <qprof/detail/recorder.hpp>
#include <qprof/qprof.hpp>
#include <string>
#include <string_view>

#include "budget_report.hpp"
#include "testing.hpp"

namespace {

namespace detail = qprof::detail;

constexpr double kScopeOverFloorBudget = 1.10;
constexpr double kHitBudgetNs = 3.0;
constexpr double kDisabledBudgetNs = 1.0;

std::unique_ptr<qprof::Session> counting_session() {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.reporters = {};
    // The collector recycles chunks unread, builds nothing.
    return qprof::testing::session_without_trace(options);
}

// Says so in the output when the numbers cannot mean what the table claims.
void check_recording(benchmark::State& state, const qprof::Session& session) {
    if (!session.recording()) {
        state.SkipWithError("the session is not recording");
    } else if (detail::g_clock_kind != detail::ClockKind::tsc) {
        state.SetLabel("clock is not the TSC: the floor does not apply");
    }
}

void check_not_recording(benchmark::State& state) {
    if (detail::g_generation.load() != 0) {
        state.SkipWithError("a session is recording; the disabled path is not measured");
    }
}

// The floor: the two clock reads a timed scope makes, and nothing else.
void floor_read_tsc_x2(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(detail::read_tsc());
        benchmark::DoNotOptimize(detail::read_tsc());
    }
}

// For reference: the reads through now(), as the scope makes them (clock kind checked each time).
void reference_now_x2(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(detail::now());
        benchmark::DoNotOptimize(detail::now());
    }
}

// For reference: what the benchmark loop itself costs per iteration.
void reference_empty_loop(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::ClobberMemory();
    }
}

// The ClobberMemory() after each body keeps the compiler from carrying anything the recorder
// loads or stores over to the next iteration, as if every scope were in a separate call.
void enabled_query_scope(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope); }
        benchmark::ClobberMemory();
    }
}

void enabled_query_hit(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit);
        benchmark::ClobberMemory();
    }
}

void enabled_activity_scope(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        { PROFILE_ACTIVITY("bench_activity"); }
        benchmark::ClobberMemory();
    }
}

void disabled_query_scope(benchmark::State& state) {
    check_not_recording(state);
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope_off); }
        benchmark::ClobberMemory();
    }
}

void disabled_query_hit(benchmark::State& state) {
    check_not_recording(state);
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit_off);
        benchmark::ClobberMemory();
    }
}

void disabled_activity_scope(benchmark::State& state) {
    check_not_recording(state);
    for (auto _ : state) {
        { PROFILE_ACTIVITY("bench_activity_off"); }
        benchmark::ClobberMemory();
    }
}

void register_benchmarks() {
    using qprof::bench::with_spread;
    with_spread(benchmark::RegisterBenchmark("floor/read_tsc_x2", floor_read_tsc_x2));
    with_spread(benchmark::RegisterBenchmark("enabled/query_scope", enabled_query_scope));
    with_spread(benchmark::RegisterBenchmark("enabled/query_hit", enabled_query_hit));
    with_spread(benchmark::RegisterBenchmark("enabled/activity_scope", enabled_activity_scope));
    with_spread(benchmark::RegisterBenchmark("disabled/query_scope", disabled_query_scope));
    with_spread(benchmark::RegisterBenchmark("disabled/query_hit", disabled_query_hit));
    with_spread(benchmark::RegisterBenchmark("disabled/activity_scope", disabled_activity_scope));
    with_spread(benchmark::RegisterBenchmark("reference/now_x2", reference_now_x2));
    with_spread(benchmark::RegisterBenchmark("reference/empty_loop", reference_empty_loop));
}

using Figure = std::optional<qprof::bench::Measure> (qprof::bench::RecordingReporter::*)(
    const std::string&) const;

// One table per time measure.
void print_budgets(const qprof::bench::RecordingReporter& runs, Figure figure,
                   std::string_view measure) {
    auto time = [&](const char* name) { return (runs.*figure)(name); };
    qprof::bench::BudgetTable table{std::cout, "qprof hot path vs its budgets, " +
                                                   std::string(measure) + " per iteration (" +
                                                   runs.repetitions_note() + ")"};
    const auto floor = time("floor/read_tsc_x2");
    table.reference("floor: 2 x read_tsc", floor, "ns");
    table.reference("enabled query scope", time("enabled/query_scope"), "ns");
    table.reference("enabled activity scope", time("enabled/activity_scope"), "ns");
    table.ratio_at_most("query scope / floor", time("enabled/query_scope"), floor,
                        kScopeOverFloorBudget);
    table.ratio_at_most("activity scope / floor", time("enabled/activity_scope"), floor,
                        kScopeOverFloorBudget);
    table.at_most("hit", time("enabled/query_hit"), kHitBudgetNs, "ns");
    table.at_most("disabled query scope", time("disabled/query_scope"), kDisabledBudgetNs, "ns");
    table.at_most("disabled hit", time("disabled/query_hit"), kDisabledBudgetNs, "ns");
    table.at_most("disabled activity scope", time("disabled/activity_scope"), kDisabledBudgetNs,
                  "ns");
    table.reference("reference: 2 x now()", time("reference/now_x2"), "ns");
    table.reference("reference: empty loop", time("reference/empty_loop"), "ns");
    std::cout << "  " << table.summary() << '\n';
}

}  // namespace

int main(int argc, char** argv) {
    if (!QPROF_ENABLED) {
        std::cout << "qprof: built with -Dprofiling=disabled: the macros are compiled out, so "
                     "the enabled and disabled figures are those of an empty loop.\n";
    }
    register_benchmarks();
    qprof::bench::RecordingReporter reporter;
    if (!qprof::bench::run_benchmarks(argc, argv, reporter)) {
        return 1;
    }
    // The budgets are in real time; the CPU-time table tells, on a loaded machine, how much of
    // an excess is the thread waiting for a core rather than the recorder's own work.
    print_budgets(reporter, &qprof::bench::RecordingReporter::time_ns, "real time");
    print_budgets(reporter, &qprof::bench::RecordingReporter::cpu_ns, "CPU time");
    return 0;  // timings on a shared machine are information, not a pass or fail
}
