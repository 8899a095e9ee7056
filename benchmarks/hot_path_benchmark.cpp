// The hot path against its budgets (docs/architecture.md), all in one run
// so that every figure is compared with the clock floor measured on the same machine state:
//
//   floor/read_tsc_x2        two bare clock reads, the least a timed scope can cost
//   enabled/query_scope      { PROFILE_QUERY(...); }   <= 1.10 x floor
//   enabled/query_hit        PROFILE_QUERY_HIT(...);   <= 3 ns
//   enabled/region_switch    qprof::enter_region(...), two names in turn: one region ends,
//                            the next begins; <= enabled/query_scope (the provider-scope budget)
//   enabled/size             qprof::record_size(...): one 16-byte record, no clock read;
//                            <= enabled/query_scope
//   enabled/counter          qprof::counter(...): a 24-byte record and a clock read;
//                            <= enabled/query_scope
//   enabled/activity_scope   { PROFILE_ACTIVITY(...); } for reference: it also reads the
//                            thread's CPU clock twice (system calls; activities are few)
//   enabled/activity_arg_scope  { PROFILE_ACTIVITY_ARG(..., unit); } with 8 std::string units
//                            in turn, for reference: the activity and its argument's key record
//   disabled/...             the same macros with no session recording: <= 1 ns
//   keys/query_scope_string  { PROFILE_QUERY(..., path); } recording keys, 1,024 std::string
//                            paths in turn: <= 2 x enabled/query_scope
//   keys/...                 the same with an aggregate key, and hits with either
//   selecting/...            a session leaving events out (-Z profile-queries-events): a scope
//                            and a hit still recorded, and a hit and a scope left out
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

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <qprof/detail/clock.hpp>
#include <qprof/detail/recorder.hpp>
#include <qprof/qprof.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "budget_report.hpp"
#include "testing.hpp"

namespace {

namespace detail = qprof::detail;

constexpr double kScopeOverFloorBudget = 1.10;
constexpr double kHitBudgetNs = 3.0;
constexpr double kDisabledBudgetNs = 1.0;
constexpr double kKeyedOverUnkeyedBudget = 2.0;
constexpr double kRegionOverScopeBudget = 1.0;

std::unique_ptr<qprof::Session> counting_session(bool record_keys = false,
                                                 qprof::EventSelection events = {}) {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.record_keys = record_keys;
    options.events = std::move(events);
    options.reporters = {};
    // The collector recycles chunks unread, builds nothing.
    return qprof::testing::session_without_trace(options);
}

// Keys as a build tool's scan has them: paths too long for the short-string buffer, and
// aggregates, taken in turn so that each is seen again long after its first time.
struct NodeId {
    std::uint32_t graph;
    std::uint32_t index;
};
constexpr std::uint32_t kDistinctKeys = 1024;  // a power of two, so that cycling costs a mask

const std::vector<std::string>& key_paths() {
    static const std::vector<std::string> paths = [] {
        std::vector<std::string> made;
        for (std::uint32_t i = 0; i < kDistinctKeys; ++i) {
            made.push_back("src/module" + std::to_string(i / 64) + "/file" + std::to_string(i) +
                           ".cc");
        }
        return made;
    }();
    return paths;
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

void enabled_activity_arg_scope(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    std::vector<std::string> units;
    units.reserve(8);
    for (int unit = 0; unit < 8; ++unit) {
        units.push_back("toyc.cgu." + std::to_string(unit));
    }
    std::uint32_t next = 0;
    for (auto _ : state) {
        { PROFILE_ACTIVITY_ARG("bench_activity_arg", units[next++ & 7]); }
        benchmark::ClobberMemory();
    }
}

void enabled_region_switch(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    static constexpr const char* kRegions[] = {"bench_region_a", "bench_region_b"};
    std::uint32_t next = 0;
    for (auto _ : state) {
        qprof::enter_region(kRegions[next++ & 1]);
        benchmark::ClobberMemory();
    }
    qprof::exit_region();
}

void enabled_size(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        qprof::record_size("bench_size", bytes++);
        benchmark::ClobberMemory();
    }
}

void enabled_counter(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    std::int64_t value = 0;
    for (auto _ : state) {
        qprof::counter("bench_counter", value++);
        benchmark::ClobberMemory();
    }
}

void disabled_counter(benchmark::State& state) {
    check_not_recording(state);
    std::int64_t value = 0;
    for (auto _ : state) {
        qprof::counter("bench_counter_off", value++);
        benchmark::ClobberMemory();
    }
}

void keys_query_scope_string(benchmark::State& state) {
    const std::vector<std::string>& paths = key_paths();
    const std::unique_ptr<qprof::Session> session = counting_session(true);
    check_recording(state, *session);
    std::uint32_t next = 0;
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope_path, paths[next++ % kDistinctKeys]); }
        benchmark::ClobberMemory();
    }
}

void keys_query_scope_aggregate(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session(true);
    check_recording(state, *session);
    std::uint32_t next = 0;
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope_node, NodeId{1, next++ % kDistinctKeys}); }
        benchmark::ClobberMemory();
    }
}

void keys_query_hit_string(benchmark::State& state) {
    const std::vector<std::string>& paths = key_paths();
    const std::unique_ptr<qprof::Session> session = counting_session(true);
    check_recording(state, *session);
    std::uint32_t next = 0;
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit_path, paths[next++ % kDistinctKeys]);
        benchmark::ClobberMemory();
    }
}

void keys_query_hit_aggregate(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session(true);
    check_recording(state, *session);
    std::uint32_t next = 0;
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit_node, NodeId{1, next++ % kDistinctKeys});
        benchmark::ClobberMemory();
    }
}

// A session that leaves hits and one provider out: what the rest pays for the per-site check,
// and what a left-out event costs.
std::unique_ptr<qprof::Session> selecting_session() {
    qprof::EventSelection events;
    events.hits = false;
    events.excluded = {"bench_left_out"};
    return counting_session(false, events);
}

void selecting_query_scope(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = selecting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope_selected); }
        benchmark::ClobberMemory();
    }
}

void selecting_scope_left_out(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = selecting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        { PROFILE_QUERY(bench_left_out); }
        benchmark::ClobberMemory();
    }
}

void selecting_hit_left_out(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = selecting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit_left_out);
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
    with_spread(
        benchmark::RegisterBenchmark("enabled/activity_arg_scope", enabled_activity_arg_scope));
    with_spread(benchmark::RegisterBenchmark("enabled/region_switch", enabled_region_switch));
    with_spread(benchmark::RegisterBenchmark("enabled/size", enabled_size));
    with_spread(benchmark::RegisterBenchmark("enabled/counter", enabled_counter));
    with_spread(benchmark::RegisterBenchmark("keys/query_scope_string", keys_query_scope_string));
    with_spread(
        benchmark::RegisterBenchmark("keys/query_scope_aggregate", keys_query_scope_aggregate));
    with_spread(benchmark::RegisterBenchmark("keys/query_hit_string", keys_query_hit_string));
    with_spread(benchmark::RegisterBenchmark("keys/query_hit_aggregate", keys_query_hit_aggregate));
    with_spread(benchmark::RegisterBenchmark("selecting/query_scope", selecting_query_scope));
    with_spread(benchmark::RegisterBenchmark("selecting/scope_left_out", selecting_scope_left_out));
    with_spread(benchmark::RegisterBenchmark("selecting/hit_left_out", selecting_hit_left_out));
    with_spread(benchmark::RegisterBenchmark("disabled/query_scope", disabled_query_scope));
    with_spread(benchmark::RegisterBenchmark("disabled/query_hit", disabled_query_hit));
    with_spread(benchmark::RegisterBenchmark("disabled/activity_scope", disabled_activity_scope));
    with_spread(benchmark::RegisterBenchmark("disabled/counter", disabled_counter));
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
    table.reference("enabled activity scope with an argument", time("enabled/activity_arg_scope"),
                    "ns");
    table.ratio_at_most("query scope / floor", time("enabled/query_scope"), floor,
                        kScopeOverFloorBudget);
    table.ratio_at_most("region switch / query scope", time("enabled/region_switch"),
                        time("enabled/query_scope"), kRegionOverScopeBudget);
    table.at_most("hit", time("enabled/query_hit"), kHitBudgetNs, "ns");
    table.ratio_at_most("size / query scope", time("enabled/size"), time("enabled/query_scope"),
                        1.0);
    table.ratio_at_most("counter / query scope", time("enabled/counter"),
                        time("enabled/query_scope"), 1.0);
    table.ratio_at_most("scope, std::string key / unkeyed scope", time("keys/query_scope_string"),
                        time("enabled/query_scope"), kKeyedOverUnkeyedBudget);
    table.ratio_at_most("scope, aggregate key / unkeyed scope", time("keys/query_scope_aggregate"),
                        time("enabled/query_scope"), kKeyedOverUnkeyedBudget);
    table.reference("hit, std::string key", time("keys/query_hit_string"), "ns");
    table.reference("hit, aggregate key", time("keys/query_hit_aggregate"), "ns");
    table.ratio_at_most("query scope / floor, selecting session", time("selecting/query_scope"),
                        floor, kScopeOverFloorBudget);
    // Left out, an event must cost less than recording the cheapest one, a hit.
    table.ratio_at_most("scope left out / recorded hit", time("selecting/scope_left_out"),
                        time("enabled/query_hit"), 1.0);
    table.ratio_at_most("hit left out / recorded hit", time("selecting/hit_left_out"),
                        time("enabled/query_hit"), 1.0);
    table.at_most("disabled query scope", time("disabled/query_scope"), kDisabledBudgetNs, "ns");
    table.at_most("disabled hit", time("disabled/query_hit"), kDisabledBudgetNs, "ns");
    table.at_most("disabled activity scope", time("disabled/activity_scope"), kDisabledBudgetNs,
                  "ns");
    table.at_most("disabled counter", time("disabled/counter"), kDisabledBudgetNs, "ns");
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
