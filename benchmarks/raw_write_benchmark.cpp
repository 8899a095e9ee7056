// raw_benchmark's write half: RawWriter writing a toyc-sized session to tmpfs, a temporary
// directory and /dev/null, set against a memcpy and a CRC32C of the same bytes and against the
// collector's own work on them (a tree, or totals only). Budget: >= 100 M records/s.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <qprof/detail/site.hpp>
#include <string>
#include <utility>
#include <vector>

#include "key_texts.hpp"
#include "raw_benchmark.hpp"
#include "raw_format.hpp"
#include "raw_writer.hpp"
#include "record_workload.hpp"
#include "trace_completion.hpp"

namespace qprof::bench::raw_stream {

namespace {

namespace fs = std::filesystem;

constexpr double kWriteRecordsPerSecondBudget = 100e6;
constexpr std::uint64_t kWriteRecords = 1 << 20;  // about toyc's default run

// Where the benchmark's streams go: tmpfs when there is one (the writer's CPU cost with the
// kernel's copy into page cache), the temporary directory (a disk's page cache, as a run's
// current directory would be), and /dev/null (the writer's own work: no kernel copy).
enum class Sink { tmpfs, temp_dir, dev_null };

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

}  // namespace

void register_write_benchmarks() {
    using qprof::bench::with_spread;
    with_spread(benchmark::RegisterBenchmark("raw/write_tmpfs", BM_RawWrite, Sink::tmpfs));
    with_spread(benchmark::RegisterBenchmark("raw/write_tmpdir", BM_RawWrite, Sink::temp_dir));
    with_spread(benchmark::RegisterBenchmark("raw/write_devnull", BM_RawWrite, Sink::dev_null));
    with_spread(benchmark::RegisterBenchmark("raw/memcpy", BM_Memcpy));
    with_spread(benchmark::RegisterBenchmark("raw/crc32c", BM_Crc32c));
    with_spread(benchmark::RegisterBenchmark("raw/tree_builder", BM_TreeBuilder));
    with_spread(benchmark::RegisterBenchmark("raw/totals_builder", BM_TotalsBuilder));
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

}  // namespace qprof::bench::raw_stream
