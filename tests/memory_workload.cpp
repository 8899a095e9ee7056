// The memory tests' workload (memory_workload.hpp): what each provider allocates and keeps,
// and the tally of the blocks it was given. Counted by the allocation hook memory_test.cpp
// includes.
#include "memory_workload.hpp"

#include <malloc.h>

#include <catch2/catch.hpp>
#include <cstdint>

#include "test_support.hpp"

namespace qprof::test::workload {

using qprof::MemoryUse;

// What each call of a provider allocated itself, one entry per call in the order the calls
// began, each block counted by its own usable size: glibc may hand out a free block 16 bytes
// larger than a fresh one of the same size (which depends on MALLOC_PERTURB_), so the expected
// figures are summed from the blocks the workload was given.
Tally& tally() {
    static Tally calls;
    return calls;
}

// Empties the tally, with room made before any scope opens so that recording allocates nothing.
void reset_tally() {
    for (Calls* calls :
         {&tally().inner, &tally().nested, &tally().outer, &tally().own_outer, &tally().spell}) {
        calls->clear();
        calls->reserve(8);
    }
}

// Starts the record of a call; returns its index in `calls`.
std::size_t begin_call(Calls& calls) {
    calls.emplace_back();
    return calls.size() - 1;
}

// Counts `block` in that call: allocated, and retained if the memo table keeps it.
void count(MemoryUse& call, const void* block, bool kept) {
    const std::uint64_t bytes = malloc_usable_size(const_cast<void*>(block));
    call.allocated_bytes += bytes;
    ++call.allocations;
    if (kept) {
        call.retained_bytes += static_cast<std::int64_t>(bytes);
    }
}

MemoryUse operator+(MemoryUse a, const MemoryUse& b) {
    a.allocated_bytes += b.allocated_bytes;
    a.allocations += b.allocations;
    a.retained_bytes += b.retained_bytes;
    return a;
}

// The sum of the calls from `first` on.
MemoryUse sum(const Calls& calls, std::size_t first) {
    MemoryUse total;
    for (std::size_t call = first; call < calls.size(); ++call) {
        total = total + calls[call];
    }
    return total;
}

// The memo table: results the providers keep. Its room is made before any scope opens.
std::vector<std::unique_ptr<char[]>>& memo() {
    static std::vector<std::unique_ptr<char[]>> table;
    return table;
}

// Keeps a new block of `size` bytes in the memo table, counted in `call`.
void keep(MemoryUse& call, std::size_t size) {
    memo().push_back(std::unique_ptr<char[]>(new char[size]));
    count(call, memo().back().get(), true);
}

void inner() {
    PROFILE_QUERY(inner);
    MemoryUse& call = tally().inner[begin_call(tally().inner)];
    keep(call, kInnerKept);
    const auto temporary = std::make_unique<char[]>(kInnerTemporary);  // freed inside
    count(call, temporary.get(), false);
}

// Re-entered: its inclusive memory counts the outermost call once.
void nested(int levels) {
    PROFILE_QUERY(nested);
    keep(tally().nested[begin_call(tally().nested)], kLevel);
    if (levels > 1) {
        nested(levels - 1);
    }
}

void outer() {
    PROFILE_QUERY(outer);
    const std::size_t call = begin_call(tally().outer);
    const auto temporary = std::make_unique<char[]>(kOuterTemporary);
    count(tally().outer[call], temporary.get(), false);
    inner();
    PROFILE_QUERY_HIT(inner);  // a hit allocates nothing and records no memory
    inner();
    nested(3);
    keep(tally().outer[call], kOuterKept);
}

// Runs the workload once in a session with these options, after a warm-up run (which makes
// qprof's and the program's lasting allocations); the tally holds the measured run only.
qprof::Trace run_workload(qprof::SessionOptions options) {
    reset_tally();
    {
        qprof::Session warm_up{qprof::test::recording_options()};
        outer();
    }
    memo().clear();
    memo().reserve(64);
    reset_tally();
    qprof::Session session{std::move(options)};
    outer();
    session.finish();
    return session.trace();
}

qprof::SessionOptions memory_options() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_memory = true;
    return options;
}

// The figures of the last measured run, from the tally of its blocks.
Expected expected() {
    const Tally& calls = tally();
    REQUIRE(calls.inner.size() == 2);
    REQUIRE(calls.nested.size() == 3);
    REQUIRE(calls.outer.size() == 1);
    Expected e;
    e.inner = sum(calls.inner);
    e.nested_total = sum(calls.nested);
    e.nested_self = e.nested_total;
    e.outer_self = calls.outer[0];
    e.outer_total = e.outer_self + e.inner + e.nested_total;
    return e;
}

std::string text(const MemoryUse& use) {
    return std::to_string(use.allocated_bytes) + " bytes in " + std::to_string(use.allocations) +
           ", " + std::to_string(use.retained_bytes) + " retained";
}

}  // namespace qprof::test::workload
