// Where the HTML page's time goes at the end of a short run: each part the HTML reporter makes,
// timed alone in one process over the trace of shallow_queries' scan (279,994 events, three
// quarters of them hits), and the whole page beside them.
//
//   $ ./html_parts_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// A whole process's end of run (end_to_end.py, session_benchmark) moves by milliseconds with a
// loaded host; these parts, warm and repeated in one process, tell a change of a tenth of a
// millisecond in one of them apart. Their sum is more than the page takes: the columns are made
// on a thread of their own while the program's thread makes the rest (docs/architecture.md).
// Each part's time per event is its `s_per_event` counter, against the end of the run's budget
// of 40 ns an event for all of them and the trace's completion.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <qprof/qprof.hpp>
#include <qprof/trace.hpp>
#include <string_view>
#include <vector>

#include "counting_buffer.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "html_stats.hpp"
#include "preorder.hpp"
#include "shallow_scan.hpp"

namespace {

using namespace qprof::detail::html;
using qprof::detail::Preorder;

using qprof::bench::CountingBuffer;

const qprof::Trace& scan_trace() {
    static const qprof::Trace trace = [] {
        qprof::SessionOptions options;
        options.profile_queries = true;
        options.reporters.clear();
        qprof::Session session{options};
        {
            qprof::bench::Scan scan{40'000, ""};
            for (std::uint32_t i = 0; i < scan.size(); ++i) {
                benchmark::DoNotOptimize(scan.dirty(qprof::bench::NodeId{1, i}));
            }
        }
        session.finish();
        return session.trace();
    }();
    return trace;
}

// What the page makes first and every part reads: each thread's pre-order and work, and the
// importance every share is of.
struct Basis {
    const qprof::Trace& trace = scan_trace();
    std::vector<Preorder> orders;
    std::vector<Work> works;
    std::unique_ptr<Importance> important;

    Basis() {
        for (const qprof::ThreadTrace& thread : trace.threads) {
            orders.emplace_back(thread);
        }
        for (const Preorder& order : orders) {
            works.emplace_back(order);
        }
        important = std::make_unique<Importance>(qprof::ReportOptions{}, busy_ns(trace, works));
    }
};

const Basis& basis() {
    static const Basis made;
    return made;
}

void count_events(benchmark::State& state) {
    state.counters["events"] = static_cast<double>(scan_trace().node_count());
    state.counters["s_per_event"] = benchmark::Counter(
        static_cast<double>(scan_trace().node_count()),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_Preorder(benchmark::State& state) {
    const qprof::Trace& trace = scan_trace();
    for (auto _ : state) {
        std::vector<Preorder> orders;
        for (const qprof::ThreadTrace& thread : trace.threads) {
            orders.emplace_back(thread);
        }
        benchmark::DoNotOptimize(orders.data());
    }
    count_events(state);
}

void BM_ProviderStats(benchmark::State& state) {
    const Basis& made = basis();
    for (auto _ : state) {
        std::vector<ProviderStats> stats = provider_stats(made.trace, made.orders, made.works);
        benchmark::DoNotOptimize(stats.data());
    }
    count_events(state);
}

// The widest and deepest nodes' lists.
void BM_Shapes(benchmark::State& state) {
    const Basis& made = basis();
    for (auto _ : state) {
        CountingBuffer buffer;
        std::ostream out{&buffer};
        write_shapes(out, made.trace, made.orders, made.works, made.important->total_ns());
        benchmark::DoNotOptimize(buffer.bytes());
    }
    count_events(state);
}

void BM_InitialTree(benchmark::State& state) {
    const Basis& made = basis();
    for (auto _ : state) {
        CountingBuffer buffer;
        std::ostream out{&buffer};
        for (std::size_t t = 0; t < made.orders.size(); ++t) {
            write_initial_tree(out, made.trace, made.orders[t], made.works[t], *made.important,
                               layout::kInitialElements);
        }
        benchmark::DoNotOptimize(buffer.bytes());
    }
    count_events(state);
}

// The columns encoded (varints), not yet framed or made text.
void BM_ColumnsEncoded(benchmark::State& state) {
    const Basis& made = basis();
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        bytes = 0;
        encode_payload_columns([&bytes](std::string_view piece) { bytes += piece.size(); },
                               made.trace, made.orders, *made.important);
        benchmark::DoNotOptimize(bytes);
    }
    count_events(state);
    state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

// The columns as the page holds them: encoded, in zlib's frame (stored at this size), base64.
void BM_ColumnsText(benchmark::State& state) {
    const Basis& made = basis();
    const auto method = columns_method(columns_least_bytes(made.trace, made.orders));
    std::streamsize bytes = 0;
    for (auto _ : state) {
        CountingBuffer buffer;
        std::ostream out{&buffer};
        write_payload_columns(out, made.trace, made.orders, *made.important, true, method);
        bytes = buffer.bytes();
        benchmark::DoNotOptimize(bytes);
    }
    count_events(state);
    state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

// The whole page as the HTML reporter writes it, its threads included.
void BM_HtmlPage(benchmark::State& state) {
    const qprof::Trace& trace = scan_trace();
    std::streamsize bytes = 0;
    for (auto _ : state) {
        bytes = qprof::bench::report_bytes(trace, "html");
        benchmark::DoNotOptimize(bytes);
    }
    count_events(state);
    state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

BENCHMARK(BM_Preorder)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProviderStats)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Shapes)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_InitialTree)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ColumnsEncoded)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ColumnsText)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HtmlPage)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
