// The parts of raw_benchmark shared by its write and read halves (raw_write_benchmark.cpp,
// raw_read_benchmark.cpp): where streams go, the session they describe, figures derived from
// the measured times.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "budget_report.hpp"
#include "raw_writer.hpp"

namespace qprof::bench::raw_stream {

// /dev/shm when there is one, else the temporary directory.
std::filesystem::path shm_dir();
// A stream of this process in `dir`, named after `what` it is for.
std::filesystem::path stream_path(const std::filesystem::path& dir, const char* what);
// The SESSION block of every stream the benchmark writes.
detail::RawSession session_block();
// "main", then "worker 1" and on.
std::vector<std::string> thread_names(std::uint32_t threads);

// Items per second from time per iteration (the slowest repetition gives the minimum).
std::optional<Measure> rate(std::optional<Measure> ns, std::uint64_t items);
// a / b with the extreme pairings as its range.
std::optional<Measure> ratio(std::optional<Measure> a, std::optional<Measure> b);
std::optional<Measure> scaled(std::optional<Measure> m, double by);

// The writer against the collector's own work (raw_write_benchmark.cpp).
void register_write_benchmarks();
void print_write_table(const RecordingReporter& runs, bool by_cpu);

// The qprof tool reading a stream back (raw_read_benchmark.cpp).
void register_read_benchmarks();
void print_read_table(const RecordingReporter& runs, bool by_cpu);

}  // namespace qprof::bench::raw_stream
