// The parts of hot_path_benchmark: its benchmarks (hot_path_cases.cpp), and the budgets they
// are held to with the report (hot_path_benchmark.cpp), which read them by name.
#pragma once

namespace qprof::bench::hot_path {

// Registers every benchmark of the hot path, named as hot_path_benchmark.cpp's header lists.
void register_benchmarks();

}  // namespace qprof::bench::hot_path
