// raw_benchmark's read half: a 10 M-event stream read back as `qprof summarize` (totals) and
// `qprof report` (trees) do, with where the time goes (read_stream, complete_trace). Budget:
// the summarize path in under 2 s.
#include <benchmark/benchmark.h>
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "raw_benchmark.hpp"
#include "raw_reader.hpp"
#include "raw_writer.hpp"
#include "record_workload.hpp"
#include "trace_completion.hpp"

namespace qprof::bench::raw_stream {

namespace {

namespace fs = std::filesystem;

constexpr double kSummarizeMsBudget = 2000;
constexpr std::uint64_t kReadEvents = 10'000'000;

// A 10 M-event stream on four threads, written once by RawWriter and kept in memory.
struct ReadInput {
    std::vector<unsigned char> bytes;
    std::uint64_t events = 0;
    std::string label;

    ReadInput() {
        Workload workload{4, kReadEvents, 101};
        const fs::path path = stream_path(shm_dir(), "read");
        {
            detail::RawWriter writer{path.string(), session_block()};
            workload.for_each_slice([&writer](const Slice& slice) {
                const std::uint64_t* begin = slice.words.data();
                writer.records(slice.thread, begin, begin + slice.words.size(), nullptr);
            });
            const std::uint64_t end = workload.end_tick();
            writer.finish({end, end, 1.0, workload.events(), {}}, thread_names(workload.threads()));
        }
        std::ifstream in{path, std::ios::binary};
        bytes.assign(std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{});
        fs::remove(path);
        events = workload.events();
        char text[128];
        std::snprintf(text, sizeof text, "%.2f M events, %.0f%% hits, %.1f MB",
                      static_cast<double>(events) / 1e6,
                      100.0 * static_cast<double>(workload.hits()) / static_cast<double>(events),
                      static_cast<double>(bytes.size()) / 1e6);
        label = text;
    }
};

const ReadInput* g_read_input = nullptr;  // once made: not all runs need it

const ReadInput& read_input() {
    static const ReadInput input;
    g_read_input = &input;
    return input;
}

// Real and thread CPU time of one phase of an iteration, summed over the iterations.
class PhaseClock {
  public:
    void start() {
        real_start_ = std::chrono::steady_clock::now();
        cpu_start_ = cpu_now();
    }
    void stop() {
        real_s_ +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - real_start_).count();
        cpu_s_ += cpu_now() - cpu_start_;
    }
    // "<name>_ms" and "<name>_cpu_ms", per iteration.
    void report(benchmark::State& state, const std::string& name) const {
        const auto per_iteration = benchmark::Counter::kAvgIterations;
        state.counters[name + "_ms"] = benchmark::Counter(real_s_ * 1e3, per_iteration);
        state.counters[name + "_cpu_ms"] = benchmark::Counter(cpu_s_ * 1e3, per_iteration);
    }

  private:
    static double cpu_now() {
        timespec now{};
        ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
    }

    std::chrono::steady_clock::time_point real_start_;
    double cpu_start_ = 0;
    double real_s_ = 0;
    double cpu_s_ = 0;
};

// read_stream then complete_trace: with keep_nodes=false what `qprof summarize` does after
// mapping the file, with true what `qprof report` does before its reporters run.
void BM_Read(benchmark::State& state, bool keep_nodes) {
    const ReadInput& input = read_input();
    PhaseClock reading;
    PhaseClock completing;
    for (auto _ : state) {
        reading.start();
        detail::ReadResult read =
            detail::read_stream(input.bytes, {.keep_nodes = keep_nodes, .progress = {}});
        reading.stop();
        if (read.runs.size() != 1 || !read.diagnostics.empty()) {
            state.SkipWithError("the benchmark's stream did not read back cleanly");
            break;
        }
        completing.start();
        const qprof::Trace trace = detail::complete_trace(std::move(read.runs.front().inputs));
        completing.stop();
        if (trace.events != input.events) {
            state.SkipWithError("the stream read back with a different event count");
            break;
        }
        benchmark::DoNotOptimize(trace.providers.data());
    }
    // Where an iteration's time goes (the rest: freeing what the read built).
    reading.report(state, "read");
    completing.report(state, "complete");
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(input.events));
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(input.bytes.size()));
    state.SetLabel(input.label);
}

}  // namespace

void register_read_benchmarks() {
    with_spread(benchmark::RegisterBenchmark("raw/read_totals", BM_Read, false))
        ->Unit(benchmark::kMillisecond);
    with_spread(benchmark::RegisterBenchmark("raw/read_trees", BM_Read, true))
        ->Unit(benchmark::kMillisecond);
}

void print_read_table(const qprof::bench::RecordingReporter& runs, bool by_cpu) {
    auto ns = [&](const char* name) { return by_cpu ? runs.cpu_ns(name) : runs.time_ns(name); };
    auto ms = [&](const char* name) { return scaled(ns(name), 1e-6); };
    if (g_read_input == nullptr) {
        return;  // filtered out
    }
    const ReadInput& input = *g_read_input;
    qprof::bench::BudgetTable table{std::cout, "raw read of " + input.label + ", " +
                                                   (by_cpu ? "CPU time" : "real time") + " (" +
                                                   runs.repetitions_note() + ")"};
    auto phase = [&](const char* name, const std::string& counter) {
        return runs.counter(name, counter + (by_cpu ? "_cpu_ms" : "_ms"));
    };
    table.at_most("totals (summarize)", ms("raw/read_totals"), kSummarizeMsBudget, "ms");
    table.reference("  of which read_stream", phase("raw/read_totals", "read"), "ms");
    table.reference("  of which complete_trace", phase("raw/read_totals", "complete"), "ms");
    table.reference("trees (report)", ms("raw/read_trees"), "ms");
    table.reference("  of which read_stream", phase("raw/read_trees", "read"), "ms");
    table.reference("  of which complete_trace", phase("raw/read_trees", "complete"), "ms");
    table.reference("totals, events per second", rate(ns("raw/read_totals"), input.events), "M/s",
                    1e6);
    table.reference("trees, events per second", rate(ns("raw/read_trees"), input.events), "M/s",
                    1e6);
    std::cout << "  " << table.summary() << '\n';
}

}  // namespace qprof::bench::raw_stream
