// The memory tests' workload (memory_test.cpp, memory_reports_test.cpp): nested providers
// that allocate known byte counts, some kept in a memo table, and the tally of the blocks each
// call was given, from which the expected figures are summed (memory_workload.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <qprof/qprof.hpp>
#include <string>
#include <vector>

namespace qprof::test::workload {

// The sizes the providers allocate; the reports count the allocator's usable size of each.
constexpr std::size_t kInnerKept = 1000;
constexpr std::size_t kInnerTemporary = 2000;
constexpr std::size_t kOuterKept = 500;
constexpr std::size_t kOuterTemporary = 4000;
constexpr std::size_t kLevel = 100;

using Calls = std::vector<qprof::MemoryUse>;

struct Tally {
    Calls inner, nested, outer, own_outer, spell;
};

// Each provider's calls in the last measured run.
Tally& tally();
// Empties the tally, with room made before any scope opens so that recording allocates nothing.
void reset_tally();
// Starts the record of a call; returns its index in `calls`.
std::size_t begin_call(Calls& calls);
// The sum of the calls from `first` on.
qprof::MemoryUse sum(const Calls& calls, std::size_t first = 0);
// The memo table: results the providers keep. Its room is made before any scope opens.
std::vector<std::unique_ptr<char[]>>& memo();
// Keeps a new block of `size` bytes in the memo table, counted in `call`.
void keep(qprof::MemoryUse& call, std::size_t size);
// The workload: outer calls inner twice (once a hit) and nested three levels deep.
void outer();

// Runs the workload once in a session with these options, after a warm-up run (which makes
// qprof's and the program's lasting allocations); the tally holds the measured run only.
qprof::Trace run_workload(qprof::SessionOptions options);
qprof::SessionOptions memory_options();

struct Expected {
    qprof::MemoryUse inner, nested_total, nested_self, outer_self, outer_total;
};

// The figures of the last measured run, from the tally of its blocks.
Expected expected();

std::string text(const qprof::MemoryUse& use);

}  // namespace qprof::test::workload
