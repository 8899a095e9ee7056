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
//
// This file: the program and what both halves share; the benchmarks themselves are in
// raw_write_benchmark.cpp and raw_read_benchmark.cpp.
#include "raw_benchmark.hpp"

#include <unistd.h>

#include <exception>
#include <iostream>

#include "record_workload.hpp"

namespace qprof::bench::raw_stream {

namespace fs = std::filesystem;

fs::path shm_dir() { return fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path(); }

fs::path stream_path(const fs::path& dir, const char* what) {
    return dir / ("qprof_raw_benchmark_" + std::to_string(::getpid()) + "_" + what + ".qprof");
}

detail::RawSession session_block() {
    detail::RawSession session;
    session.block.clock = detail::ClockKind::manual;  // ticks are nanoseconds
    session.block.process.pid = static_cast<std::uint32_t>(::getpid());
    session.block.process.program = "raw_benchmark";
    return session;
}

std::vector<std::string> thread_names(std::uint32_t threads) {
    std::vector<std::string> names{"main"};
    for (std::uint32_t thread = 1; thread < threads; ++thread) {
        names.push_back("worker " + std::to_string(thread));
    }
    return names;
}

std::optional<Measure> rate(std::optional<Measure> ns, std::uint64_t items) {
    if (!ns) {
        return std::nullopt;
    }
    const double r = static_cast<double>(items) * 1e9;
    return Measure{r / ns->median, r / ns->max, r / ns->min, ns->runs};
}

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

}  // namespace qprof::bench::raw_stream

int main(int argc, char** argv) {
    qprof::bench::site_ids();
    qprof::bench::raw_stream::register_write_benchmarks();
    qprof::bench::raw_stream::register_read_benchmarks();
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
        qprof::bench::raw_stream::print_write_table(reporter, by_cpu);
        qprof::bench::raw_stream::print_read_table(reporter, by_cpu);
    }
    return 0;  // timings on a shared machine are information, not a pass or fail
}
