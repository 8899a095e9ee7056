// How long each built-in reporter takes to write a trace of a million events: the time a
// run spends at its end, after the program's work, before the files are there.
//
//   $ ./reporter_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The trace is recorded once from a synthetic compiler-like workload (an item's check asks
// eight type queries, each asking two cached ones and sometimes a deeper chain), then each
// reporter writes it into a stream that only counts bytes.
#include <benchmark/benchmark.h>

#include <qprof/qprof.hpp>
#include <qprof/trace.hpp>
#include <string>

#include "counting_buffer.hpp"

namespace {

constexpr int kItems = 40'000;  // about 1.1 M events

void type_of(int id, int depth) {
    PROFILE_QUERY(type_of, id);
    PROFILE_QUERY_HIT(def_span, id);
    PROFILE_QUERY_HIT(generics_of, id);
    if (depth > 0 && id % 7 == 0) {
        type_of(id + 1, depth - 1);
    }
}

void check_item(int item) {
    PROFILE_QUERY(typeck, item);
    for (int i = 0; i < 8; ++i) {
        type_of(item * 8 + i, 4);
    }
}

const qprof::Trace& workload_trace() {
    static const qprof::Trace trace = [] {
        qprof::SessionOptions options;
        options.profile_queries = true;
        options.reporters.clear();
        qprof::Session session{options};
        {
            PROFILE_ACTIVITY("type checking");
            for (int item = 0; item < kItems; ++item) {
                check_item(item);
            }
        }
        session.finish();
        return session.trace();
    }();
    return trace;
}

void write_report(benchmark::State& state, const char* name) {
    const qprof::Trace& trace = workload_trace();
    std::streamsize bytes = 0;
    for (auto _ : state) {
        bytes = qprof::bench::report_bytes(trace, name);
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["events"] = static_cast<double>(trace.node_count());
    state.counters["MB"] = static_cast<double>(bytes) / 1e6;
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
}

BENCHMARK_CAPTURE(write_report, counts, "counts")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(write_report, html, "html")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(write_report, flamegraph, "flamegraph")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(write_report, folded, "folded")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(write_report, chrome, "chrome")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
