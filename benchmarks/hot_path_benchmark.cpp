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
//                            paths of about 20 chars in turn (recorded as their chars, in 32
//                            bytes): <= 2 x enabled/query_scope
//   keys/query_scope_medium_string  the same with paths of 40 to 44 chars (as their chars, in
//                            64 bytes): <= 2 x enabled/query_scope
//   keys/query_scope_long_string  the same with paths of 70 to 74 chars (as their chars, in
//                            128 bytes): <= 2 x enabled/query_scope
//   keys/query_scope_very_long_string  the same with paths of 139 to 143 chars (their count
//                            and chars, 18 to 19 words): <= 2 x enabled/query_scope
//   keys/...                 the same with an aggregate key, and hits with each (a very long
//                            path as a std::string_view too)
//   selecting/...            a session leaving events out (-Z profile-queries-events): a scope
//                            and a hit still recorded, and a hit and a scope left out
//
//   $ ./hot_path_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The benchmarks themselves are in hot_path_cases.cpp. The enabled ones record into a session
// whose collector recycles the chunks unread (qprof::testing::session_without_trace, no
// reporter), so memory stays flat however long they run.
//
// Two tables follow the usual output: the budgets checked against real time, then the same
// against the thread's CPU time, which on a loaded machine separates the recorder's own cost
// from the time the thread spent waiting for a core.
#include "hot_path_benchmark.hpp"

#include <iostream>
#include <optional>
#include <qprof/qprof.hpp>
#include <string>
#include <string_view>

#include "budget_report.hpp"

namespace {

constexpr double kScopeOverFloorBudget = 1.10;
constexpr double kHitBudgetNs = 3.0;
constexpr double kDisabledBudgetNs = 1.0;
constexpr double kKeyedOverUnkeyedBudget = 2.0;
constexpr double kRegionOverScopeBudget = 1.0;

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
    table.ratio_at_most("scope, medium std::string key / unkeyed scope",
                        time("keys/query_scope_medium_string"), time("enabled/query_scope"),
                        kKeyedOverUnkeyedBudget);
    table.ratio_at_most("scope, long std::string key / unkeyed scope",
                        time("keys/query_scope_long_string"), time("enabled/query_scope"),
                        kKeyedOverUnkeyedBudget);
    table.ratio_at_most("scope, very long std::string key / unkeyed scope",
                        time("keys/query_scope_very_long_string"), time("enabled/query_scope"),
                        kKeyedOverUnkeyedBudget);
    table.ratio_at_most("scope, aggregate key / unkeyed scope", time("keys/query_scope_aggregate"),
                        time("enabled/query_scope"), kKeyedOverUnkeyedBudget);
    table.reference("hit, std::string key", time("keys/query_hit_string"), "ns");
    table.reference("hit, long std::string key", time("keys/query_hit_long_string"), "ns");
    table.reference("hit, very long std::string key", time("keys/query_hit_very_long_string"),
                    "ns");
    table.reference("hit, very long std::string_view key", time("keys/query_hit_very_long_view"),
                    "ns");
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
    qprof::bench::hot_path::register_benchmarks();
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
