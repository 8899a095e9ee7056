// Per-provider statistics of profile_queries.html: what the provider table shows and what a
// click on a provider lists -- its slowest runs and its most-asked keys. Computed here once,
// embedded in the payload, so that the page does no sorting of millions of nodes.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <qprof/trace.hpp>
#include <unordered_map>
#include <vector>

#include "preorder.hpp"

namespace qprof::detail::html {

// Run durations counted by decade: < 1 µs, < 10 µs, ..., < 1 s, and 1 s or more.
inline constexpr std::size_t kHistogramBuckets = 8;
inline constexpr std::size_t kSlowestRuns = 10;
inline constexpr std::size_t kTopKeys = 10;
inline constexpr std::size_t kTopCallers = 10;

struct RunRef {
    std::uint32_t thread = 0;
    std::uint32_t n = 0;  // pre-order index in its thread, as the page's data-n
    std::int64_t ns = 0;
    std::uint32_t key = 0;  // 0 for none, else index + 1 into Trace::key_texts
};

struct KeyAsks {
    std::uint32_t key = 0;  // index + 1 into Trace::key_texts
    std::uint64_t asked = 0;
    std::uint64_t hits = 0;
    std::int64_t ns = 0;  // its runs' inclusive time, summed: what the key cost
};

// The caller of a thread's roots in CallEdge::provider: the top level, no provider (written
// as layout::kTopLevelCaller).
inline constexpr std::uint32_t kTopLevel = ~std::uint32_t{0};

// Calls between two providers, merged over the whole run (speedscope's sandwich): how often
// `provider` called or was called by the other, and the inclusive time of those calls. A
// provider's callers include kTopLevel for its runs, hits and waits at a thread's top level.
struct CallEdge {
    std::uint32_t provider = 0;
    std::uint64_t calls = 0;  // hits included: a hit is a call the cache answered
    std::int64_t ns = 0;      // the callee's inclusive time in those calls
};

// A run is a node whose provider ran (miss, load, activity); a wait (blocked) is not a run.
// Times are sums of the nodes' durations in ns, as the page carries them, so that the viewer's
// statistics of the whole run equal these to the nanosecond (not the trace's ProviderTotals,
// summed in clock ticks: they may differ by rounding).
struct ProviderStats {
    std::uint32_t provider = 0;
    std::uint64_t runs = 0;
    std::uint64_t hits = 0;
    std::uint64_t waits = 0;
    std::int64_t total_ns = 0;  // inclusive, a provider inside itself counted once
    std::int64_t self_ns = 0;   // of its nodes that are not waits: work only
    std::int64_t wait_ns = 0;
    std::int64_t work_ns = 0;    // total less the waits inside it, each once: what a pass did
    std::int64_t mean_ns = 0;    // of the runs
    std::int64_t median_ns = 0;  // the middle run; the lower middle one of an even count
    std::int64_t max_ns = 0;
    std::int64_t cpu_ns = -1;  // an activity's thread CPU time; -1 for others
    // With -Z profile-queries-memory, ProviderTotals' memory: inclusive (a provider inside
    // itself counted once) and self.
    bool memory = false;
    MemoryUse memory_total{};
    MemoryUse memory_self{};
    std::array<std::uint64_t, kHistogramBuckets> histogram{};
    std::vector<RunRef> slowest;    // longest first, ties in thread and call order
    std::vector<KeyAsks> keys;      // most asked first, ties by key text order of first use
    std::vector<CallEdge> callers;  // most time first, then most calls, kTopLevel, providers
    std::vector<CallEdge> callees;
};

class Work;

// One entry per provider of the trace, in the trace's provider order.
std::vector<ProviderStats> provider_stats(const Trace& trace, const std::vector<Preorder>& orders);
// The same with each thread's work already known (works[i] of orders[i]).
std::vector<ProviderStats> provider_stats(const Trace& trace, const std::vector<Preorder>& orders,
                                          const std::vector<Work>& works);

// The same, each thread walked in pre-order through its Preorder: what provider_stats does for a
// thread with a hit that has children (a damaged stream), the reference for the faster walk of
// the others in tests.
std::vector<ProviderStats> provider_stats_in_preorder(const Trace& trace,
                                                      const std::vector<Preorder>& orders);

// The statistics as the payload's "stats" array (docs/html-report.md).
void write_stats(std::ostream& out, const std::vector<ProviderStats>& stats);

// A run's decade (1 µs, 10 µs, ... 1 s and more), counted without a branch: durations of a
// provider fall in every decade, so a loop over the limits mispredicted its exit run after run.
inline std::size_t histogram_bucket(std::int64_t ns) {
    static_assert(kHistogramBuckets == 8, "seven limits, from 1 µs to 1 s");
    return std::size_t{ns >= 1'000} + std::size_t{ns >= 10'000} + std::size_t{ns >= 100'000} +
           std::size_t{ns >= 1'000'000} + std::size_t{ns >= 10'000'000} +
           std::size_t{ns >= 100'000'000} + std::size_t{ns >= 1'000'000'000};
}

// The k-th smallest of `values` (k < size), reordering them: nth_element over only the values
// in the k-th one's bucket (eight a power of two), found by counting them all. nth_element over
// all of them spent most of its time in mispredicted partitions (with the loop that found a
// decade, 0.3 ms of the statistics' 2.9 for shallow_queries' 80,000 runs).
std::int64_t kth_smallest(std::vector<std::int64_t>& values, std::size_t k);

// Finishing the statistics from what the walks gathered (html_stats_finish.cpp). A provider's
// mean, median, max and histogram from the durations of its runs (reordered).
void finish_durations(ProviderStats& stats, std::vector<std::int64_t>& durations);
// The kTopKeys most-asked keys of each provider, from (provider << 32 | key) counts.
void finish_keys(std::vector<ProviderStats>& stats,
                 const std::unordered_map<std::uint64_t, KeyAsks>& asks);
// The kTopCallers callers and callees of each provider, from (caller << 32 | callee) edges;
// the top level is a caller only.
void finish_calls(std::vector<ProviderStats>& stats,
                  const std::unordered_map<std::uint64_t, CallEdge>& edges);

}  // namespace qprof::detail::html
