// What a qprof::Query hit costs next to a plain hash table lookup of the same key, in one run
// so that every figure is compared on the same machine state:
//
//   map/find                    std::unordered_map<DefId, ...>::find with qprof's KeyHash
//   query/hit_not_recording     a Query hit, profiling compiled in but no session recording
//   query/hit_recording         a Query hit while a session records (-Z profile-queries)
//   query/hit_recording_keys    the same while keys are recorded (-Z profile-queries-and-keys)
//
//   $ ./query_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Every benchmark asks for the same ~1000 aggregate keys in the same order, all cached, so a
// Query answers each with a hit. The recording sessions recycle their chunks unread
// (qprof::testing::session_without_trace, no reporter), so memory stays flat however long they run.
//
// Two tables follow the usual output, in real time and in the thread's CPU time: each figure,
// then each Query figure as a ratio to the unordered_map lookup.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <qprof/detail/recorder.hpp>
#include <qprof/key.hpp>
#include <qprof/qprof.hpp>
#include <qprof/query.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "budget_report.hpp"
#include "testing.hpp"

namespace {

namespace detail = qprof::detail;
using qprof::bench::Measure;

// An aggregate key with no hash or == of its own, as in examples/toyc.
struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

using DefIdTable =
    std::unordered_map<DefId, std::uint64_t, qprof::KeyHash<DefId>, qprof::KeyEqual<DefId>>;
using DefIdQuery = qprof::Query<DefId, std::uint64_t>;

constexpr std::uint32_t kKeys = 1024;  // a power of two, so that cycling costs a mask

// Mostly local items, every fourth one from a dependency, as a compiler's queries see them.
const std::vector<DefId>& keys() {
    static const std::vector<DefId> all = [] {
        std::vector<DefId> made;
        for (std::uint32_t n = 0; n < kKeys; ++n) {
            made.push_back(DefId{n % 4 == 0 ? 1u : 0u, n * 7});
        }
        return made;
    }();
    return all;
}

std::uint64_t provide(const DefId& id) { return std::uint64_t{id.krate} << 32 | id.index; }

// A query that has computed every key already, so that each call is a hit.
void fill(DefIdQuery& query) {
    for (const DefId& key : keys()) {
        query(key);
    }
}

// The loop every benchmark runs. The ClobberMemory() after each lookup keeps the compiler from
// carrying anything over to the next one, as if every lookup were in a separate call.
template <typename Lookup>
void cycle_keys(benchmark::State& state, Lookup lookup) {
    const std::vector<DefId>& cycle = keys();
    std::uint32_t next = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(lookup(cycle[next++ % kKeys]));
        benchmark::ClobberMemory();
    }
}

std::unique_ptr<qprof::Session> recording_session(bool record_keys) {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.record_keys = record_keys;
    options.reporters.clear();
    return qprof::testing::session_without_trace(options);  // chunks recycled unread
}

// Says so in the output when the numbers cannot mean what the table claims.
void check_recording(benchmark::State& state, const qprof::Session& session, bool record_keys) {
    if (!session.recording()) {
        state.SkipWithError("the session is not recording");
    } else if (detail::g_record_keys != record_keys) {
        state.SkipWithError(record_keys ? "keys are not recorded" : "keys are recorded");
    }
}

void check_not_recording(benchmark::State& state) {
    if (detail::g_generation.load() != 0) {
        state.SkipWithError("a session is recording; the not-recording path is not measured");
    }
}

void map_find(benchmark::State& state) {
    DefIdTable table;
    for (const DefId& key : keys()) {
        table.emplace(key, provide(key));
    }
    cycle_keys(state, [&](const DefId& key) { return table.find(key)->second; });
}

void query_hit_not_recording(benchmark::State& state) {
    check_not_recording(state);
    DefIdQuery query{"bench_query", provide};
    fill(query);
    cycle_keys(state, [&](const DefId& key) { return query(key); });
}

void query_hit_recording(benchmark::State& state, bool record_keys) {
    DefIdQuery query{"bench_query", provide};
    fill(query);  // before the session: only hits are recorded
    const std::unique_ptr<qprof::Session> session = recording_session(record_keys);
    check_recording(state, *session, record_keys);
    cycle_keys(state, [&](const DefId& key) { return query(key); });
}

void register_benchmarks() {
    using qprof::bench::with_spread;
    with_spread(benchmark::RegisterBenchmark("map/find", map_find));
    with_spread(benchmark::RegisterBenchmark("query/hit_not_recording", query_hit_not_recording));
    with_spread(benchmark::RegisterBenchmark("query/hit_recording", query_hit_recording, false));
    with_spread(
        benchmark::RegisterBenchmark("query/hit_recording_keys", query_hit_recording, true));
}

// numerator / denominator, both medians; the range is that of the extreme pairings, which
// bound the ratio of any two repetitions.
std::optional<Measure> ratio(const std::optional<Measure>& numerator,
                             const std::optional<Measure>& denominator) {
    if (!numerator || !denominator || denominator->min <= 0) {
        return std::nullopt;
    }
    return Measure{numerator->median / denominator->median, numerator->min / denominator->max,
                   numerator->max / denominator->min, numerator->runs};
}

struct Row {
    std::string_view label;
    const char* benchmark;
};

constexpr Row kBaseline{"unordered_map find", "map/find"};
constexpr Row kQueryHits[] = {
    {"Query hit, not recording", "query/hit_not_recording"},
    {"Query hit, recording", "query/hit_recording"},
    {"Query hit, recording keys", "query/hit_recording_keys"},
};

// The labels padded to one width, so that the figures line up.
std::string padded(std::string label) {
    constexpr std::size_t kWidth = 46;
    label.resize(std::max(label.size(), kWidth), ' ');
    return label;
}

using Figure =
    std::optional<Measure> (qprof::bench::RecordingReporter::*)(const std::string&) const;

// One table per time measure: the figures, then each Query hit against the map lookup.
void print_ratios(const qprof::bench::RecordingReporter& runs, Figure figure,
                  std::string_view measure) {
    auto time = [&](const char* name) { return (runs.*figure)(name); };
    qprof::bench::BudgetTable table{std::cout, "qprof::Query hit vs std::unordered_map find, " +
                                                   std::string(measure) + " per lookup (" +
                                                   runs.repetitions_note() + ")"};
    const std::optional<Measure> baseline = time(kBaseline.benchmark);
    table.reference(padded(std::string(kBaseline.label)), baseline, "ns");
    for (const Row& row : kQueryHits) {
        table.reference(padded(std::string(row.label)), time(row.benchmark), "ns");
    }
    for (const Row& row : kQueryHits) {
        const std::string label = std::string(row.label) + " / " + std::string(kBaseline.label);
        table.reference(padded(label), ratio(time(row.benchmark), baseline), "x");
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (!QPROF_ENABLED) {
        std::cout << "qprof: built with -Dprofiling=disabled: a Query records nothing, so all "
                     "three Query figures are those of its memo table alone.\n";
    }
    register_benchmarks();
    qprof::bench::RecordingReporter reporter;
    if (!qprof::bench::run_benchmarks(argc, argv, reporter)) {
        return 1;
    }
    // On a loaded machine, the CPU-time table leaves out the time the thread waited for a core.
    print_ratios(reporter, &qprof::bench::RecordingReporter::time_ns, "real time");
    print_ratios(reporter, &qprof::bench::RecordingReporter::cpu_ns, "CPU time");
    return 0;  // timings on a shared machine are information, not a pass or fail
}
