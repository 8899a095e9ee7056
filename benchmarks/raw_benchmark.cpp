// What the raw stream (-Z profile-queries=raw) costs: the collector writing it while the
// program runs, and the qprof tool reading it back. Budgets (docs/architecture.md):
// the writer keeps up with the collector's >= 100 M records/s, and the summarize path reads a
// 10 M-event stream in under 2 s.
//
//   $ ./raw_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Records come from the synthetic workload of benchmarks/record_workload.hpp. The write is set
// against what the collector already does with the same chunks (a tree, or totals only) and against
// a plain memcpy and a CRC32C of their bytes.
#include <benchmark/benchmark.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <qprof/detail/recorder.hpp>
#include <qprof/detail/site.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "budget_report.hpp"
#include "key_texts.hpp"
#include "raw_format.hpp"
#include "raw_reader.hpp"
#include "raw_writer.hpp"
#include "record_workload.hpp"
#include "trace_completion.hpp"

namespace {

namespace detail = qprof::detail;
namespace fs = std::filesystem;
using qprof::bench::Measure;
using qprof::bench::Slice;
using qprof::bench::Workload;

constexpr double kWriteRecordsPerSecondBudget = 100e6;
constexpr double kSummarizeMsBudget = 2000;
constexpr std::uint64_t kWriteRecords = 1 << 20;  // about toyc's default run
constexpr std::uint64_t kReadEvents = 10'000'000;

// Where the benchmark's streams go: tmpfs when there is one (the writer's CPU cost with the
// kernel's copy into page cache), the temporary directory (a disk's page cache, as a run's
// current directory would be), and /dev/null (the writer's own work: no kernel copy).
enum class Sink { tmpfs, temp_dir, dev_null };

fs::path shm_dir() { return fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path(); }

fs::path stream_path(const fs::path& dir, const char* what) {
    return dir / ("qprof_raw_benchmark_" + std::to_string(::getpid()) + "_" + what + ".qprof");
}

fs::path sink_path(Sink sink) {
    switch (sink) {
        case Sink::tmpfs:
            return stream_path(shm_dir(), "write");
        case Sink::temp_dir:
            return stream_path(fs::temp_directory_path(), "write");
        case Sink::dev_null:
            break;
    }
    return "/dev/null";
}

detail::RawSession session_block() {
    detail::RawSession session;
    session.clock = detail::ClockKind::manual;  // ticks are nanoseconds
    session.process.pid = static_cast<std::uint32_t>(::getpid());
    session.process.program = "raw_benchmark";
    return session;
}

std::vector<std::string> thread_names(std::uint32_t threads) {
    std::vector<std::string> names{"main"};
    for (std::uint32_t thread = 1; thread < threads; ++thread) {
        names.push_back("worker " + std::to_string(thread));
    }
    return names;
}

// What one iteration of the write benchmarks feeds: toyc's size, three threads.
struct WriteInput {
    std::vector<Slice> slices;
    std::uint64_t records = 0;
    std::uint64_t bytes = 0;
    std::uint64_t end_tick = 0;
    std::uint32_t threads = 3;
    std::string label;

    WriteInput() {
        Workload workload{threads, kWriteRecords, 11};
        workload.for_each_slice([this](Slice slice) {
            bytes += slice.words.size() * sizeof(std::uint64_t);
            slices.push_back(std::move(slice));
        });
        records = workload.events();
        end_tick = workload.end_tick();
        char text[128];
        std::snprintf(text, sizeof text, "%llu records, %.0f%% hits, %zu chunks",
                      static_cast<unsigned long long>(records),
                      100.0 * static_cast<double>(workload.hits()) / static_cast<double>(records),
                      slices.size());
        label = text;
    }
};

const WriteInput& write_input() {
    static const WriteInput input;
    return input;
}

void set_write_rates(benchmark::State& state, const WriteInput& input) {
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(input.records));
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(input.bytes));
    state.SetLabel(input.label);
}

// A whole session's stream: create the file, every slice, END, close.
void BM_RawWrite(benchmark::State& state, Sink sink) {
    const WriteInput& input = write_input();
    const std::string path = sink_path(sink).string();
    const std::vector<std::string> names = thread_names(input.threads);
    for (auto _ : state) {
        detail::RawWriter writer{path, session_block()};
        for (const Slice& slice : input.slices) {
            const std::uint64_t* begin = slice.words.data();
            writer.records(slice.thread, begin, begin + slice.words.size(), nullptr);
        }
        writer.finish({input.end_tick, input.end_tick, 1.0, input.records, {}}, names);
        if (writer.failed()) {
            state.SkipWithError(("writing " + path + " failed").c_str());
            break;
        }
    }
    if (sink != Sink::dev_null) {
        std::error_code error;
        state.counters["file_MB"] = static_cast<double>(fs::file_size(path, error)) / 1e6;
        fs::remove(path, error);
    }
    set_write_rates(state, input);
}

// The floor: the same bytes copied once, into memory used before.
void BM_Memcpy(benchmark::State& state) {
    const WriteInput& input = write_input();
    std::vector<std::uint64_t> copy(input.bytes / sizeof(std::uint64_t));
    for (auto _ : state) {
        std::uint64_t* out = copy.data();
        for (const Slice& slice : input.slices) {
            std::memcpy(out, slice.words.data(), slice.words.size() * sizeof(std::uint64_t));
            out += slice.words.size();
        }
        benchmark::DoNotOptimize(copy.data());
        benchmark::ClobberMemory();
    }
    set_write_rates(state, input);
}

// The checksum every block carries.
void BM_Crc32c(benchmark::State& state) {
    const WriteInput& input = write_input();
    for (auto _ : state) {
        std::uint32_t crc = 0;
        for (const Slice& slice : input.slices) {
            crc = detail::raw::crc32c(slice.words.data(), slice.words.size() * 8, crc);
        }
        benchmark::DoNotOptimize(crc);
    }
    set_write_rates(state, input);
}

// What the collector does with the same slices when some report needs the trees.
void BM_TreeBuilder(benchmark::State& state) {
    const WriteInput& input = write_input();
    detail::KeyTexts keys;
    for (auto _ : state) {
        std::vector<detail::TreeBuilder> trees(input.threads);
        for (const Slice& slice : input.slices) {
            const std::uint64_t* begin = slice.words.data();
            trees[slice.thread].add_records(begin, begin + slice.words.size(), keys);
        }
        benchmark::DoNotOptimize(trees.data());
        benchmark::ClobberMemory();
    }
    set_write_rates(state, input);
}

// What it does when the reports need totals only (-Z profile-queries=raw,counts).
void BM_TotalsBuilder(benchmark::State& state) {
    const WriteInput& input = write_input();
    detail::KeyTexts keys;
    detail::ProviderSlots slots;
    slots.add_sites(detail::registered_sites());
    for (auto _ : state) {
        std::vector<detail::TotalsBuilder> totals(input.threads);
        for (const Slice& slice : input.slices) {
            const std::uint64_t* begin = slice.words.data();
            totals[slice.thread].add_records(begin, begin + slice.words.size(), keys, slots);
        }
        benchmark::DoNotOptimize(totals.data());
        benchmark::ClobberMemory();
    }
    set_write_rates(state, input);
}

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

void register_benchmarks() {
    using qprof::bench::with_spread;
    with_spread(benchmark::RegisterBenchmark("raw/write_tmpfs", BM_RawWrite, Sink::tmpfs));
    with_spread(benchmark::RegisterBenchmark("raw/write_tmpdir", BM_RawWrite, Sink::temp_dir));
    with_spread(benchmark::RegisterBenchmark("raw/write_devnull", BM_RawWrite, Sink::dev_null));
    with_spread(benchmark::RegisterBenchmark("raw/memcpy", BM_Memcpy));
    with_spread(benchmark::RegisterBenchmark("raw/crc32c", BM_Crc32c));
    with_spread(benchmark::RegisterBenchmark("raw/tree_builder", BM_TreeBuilder));
    with_spread(benchmark::RegisterBenchmark("raw/totals_builder", BM_TotalsBuilder));
    with_spread(benchmark::RegisterBenchmark("raw/read_totals", BM_Read, false))
        ->Unit(benchmark::kMillisecond);
    with_spread(benchmark::RegisterBenchmark("raw/read_trees", BM_Read, true))
        ->Unit(benchmark::kMillisecond);
}

// Items per second from time per iteration (the slowest repetition gives the minimum).
std::optional<Measure> rate(std::optional<Measure> ns, std::uint64_t items) {
    if (!ns) {
        return std::nullopt;
    }
    const double r = static_cast<double>(items) * 1e9;
    return Measure{r / ns->median, r / ns->max, r / ns->min, ns->runs};
}

// a / b with the extreme pairings as its range.
std::optional<Measure> ratio(std::optional<Measure> a, std::optional<Measure> b) {
    if (!a || !b || b->median <= 0) {
        return std::nullopt;
    }
    return Measure{a->median / b->median, a->min / b->max, a->max / b->min, a->runs};
}

std::optional<Measure> scaled(std::optional<Measure> m, double by) {
    if (!m) {
        return std::nullopt;
    }
    return Measure{m->median * by, m->min * by, m->max * by, m->runs};
}

void print_write_table(const qprof::bench::RecordingReporter& runs, bool by_cpu) {
    auto ns = [&](const char* name) { return by_cpu ? runs.cpu_ns(name) : runs.time_ns(name); };
    const std::uint64_t records = write_input().records;
    qprof::bench::BudgetTable table{std::cout, std::string("raw write, records per second of ") +
                                                   (by_cpu ? "CPU time" : "real time") + " (" +
                                                   runs.repetitions_note() + ")"};
    table.at_least("write, tmpfs", rate(ns("raw/write_tmpfs"), records),
                   kWriteRecordsPerSecondBudget / 1e6, "M/s", 1e6);
    table.reference("write, temp dir", rate(ns("raw/write_tmpdir"), records), "M/s", 1e6);
    table.reference("write, /dev/null", rate(ns("raw/write_devnull"), records), "M/s", 1e6);
    table.reference("memcpy of the same bytes", rate(ns("raw/memcpy"), records), "M/s", 1e6);
    table.reference("crc32c of the same bytes", rate(ns("raw/crc32c"), records), "M/s", 1e6);
    table.reference("collector: trees", rate(ns("raw/tree_builder"), records), "M/s", 1e6);
    table.reference("collector: totals only", rate(ns("raw/totals_builder"), records), "M/s", 1e6);
    table.reference("write / memcpy", ratio(ns("raw/write_tmpfs"), ns("raw/memcpy")), "x");
    table.reference("write / collector trees",
                    scaled(ratio(ns("raw/write_tmpfs"), ns("raw/tree_builder")), 100), "%");
    table.reference("write / collector totals",
                    scaled(ratio(ns("raw/write_tmpfs"), ns("raw/totals_builder")), 100), "%");
    std::cout << "  " << table.summary() << '\n';
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

}  // namespace

int main(int argc, char** argv) {
    qprof::bench::site_ids();
    register_benchmarks();
    qprof::bench::RecordingReporter reporter;
    try {
        if (!qprof::bench::run_benchmarks(argc, argv, reporter)) {
            return 1;
        }
    } catch (const std::exception& error) {  // a stream that cannot be created
        std::cerr << "raw_benchmark: " << error.what() << '\n';
        return 1;
    }
    // Google Benchmark's rates are per CPU second; on a loaded machine the real-time tables
    // show what a run sharing the cores would see.
    for (const bool by_cpu : {false, true}) {
        print_write_table(reporter, by_cpu);
        print_read_table(reporter, by_cpu);
    }
    return 0;  // timings on a shared machine are information, not a pass or fail
}
