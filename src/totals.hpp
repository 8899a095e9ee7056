// Per-provider totals of one thread, computed from its nodes as they complete, without the
// tree: memory grows with the depth in flight, never with the number of nodes, so a long run
// that reports only counts stays flat.
//
//   TotalsAccumulator totals;                 // one per thread
//   for (const Record& r : records)           // in the order the thread wrote them
//       totals.add(provider_of(r), r.depth, r.outcome, r.start, r.end);
//   totals.add_to(sum);                       // the caller sums the threads
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <qprof/trace.hpp>
#include <vector>

#include "argument_sums.hpp"
#include "inclusive_sums.hpp"

namespace qprof::detail {

// Memory used inside a node, summed modulo 2^64 like ticks: what a -Z profile-queries-memory
// record says of a scope (inclusive of its children).
struct MemoryAmount {
    std::uint64_t allocated_bytes = 0;
    std::uint64_t allocations = 0;
    std::uint64_t retained_bytes = 0;  // allocated minus freed: a signed value, two's complement

    friend MemoryAmount operator+(const MemoryAmount& a, const MemoryAmount& b) {
        return {a.allocated_bytes + b.allocated_bytes, a.allocations + b.allocations,
                a.retained_bytes + b.retained_bytes};
    }
    friend MemoryAmount operator-(const MemoryAmount& a, const MemoryAmount& b) {
        return {a.allocated_bytes - b.allocated_bytes, a.allocations - b.allocations,
                a.retained_bytes - b.retained_bytes};
    }
    friend bool operator==(const MemoryAmount&, const MemoryAmount&) = default;

    static MemoryAmount of(const MemoryUse& use) {
        return {use.allocated_bytes, use.allocations,
                static_cast<std::uint64_t>(use.retained_bytes)};
    }
    MemoryUse use() const {
        return {allocated_bytes, allocations, static_cast<std::int64_t>(retained_bytes)};
    }
};

// One provider's totals in raw clock ticks, with the meaning of ProviderTotals.
struct TickTotals {
    std::uint64_t count = 0, hits = 0, misses = 0;
    std::int64_t total = 0, self = 0, blocked = 0, load = 0;
    std::int64_t blocked_self = 0;  // the waits' self: a wait's duration less its children's
    std::int64_t cpu_ns = 0;        // activities' thread CPU time: nanoseconds already
    MemoryAmount memory_total, memory_self;  // with -Z profile-queries-memory
};

// The end of a timed node, by the one rule every path follows: an end tick before the start (a
// clock that went back, as a virtual machine's can when it migrates) is the start, so that the
// node takes no time, never a negative one. Ticks compare signed, as nodes hold them.
// TotalsAccumulator::add applies it to whatever feeds it (the collector's TotalsBuilder, a
// completed tree, a saved run); trace completion to the nodes a tree keeps.
constexpr std::int64_t clamped_end(std::int64_t start, std::int64_t end) {
    return end < start ? start : end;
}

// Per-provider totals of one thread: counts, times and, when recorded, memory.
class TotalsAccumulator {
  public:
    // One node in post-order, with its depth as recorded; a hit has no duration, nor has a node
    // that ends before it starts (clamped_end). `argument`: an activity's argument as a key
    // text id (1-based), 0 for none.
    void add(std::uint32_t provider, std::uint32_t depth, Outcome outcome, std::int64_t start,
             std::int64_t end, std::uint32_t argument = 0) {
        if (outcome == Outcome::hit) {
            add_hit(provider, depth);
            return;
        }
        const std::uint64_t duration =
            static_cast<std::uint64_t>(clamped_end(start, end)) - static_cast<std::uint64_t>(start);
        const std::uint64_t self = time_.add(provider, depth, duration);
        arguments_.add(provider, depth, outcome == Outcome::activity ? argument : 0, duration);
        TickTotals& counts = counts_of(provider);
        ++counts.count;
        counts.misses += outcome == Outcome::miss;
        if (outcome == Outcome::blocked) {
            waits_.add(provider, depth, duration);
            add_ticks(counts.blocked_self, self);
        } else {
            waits_.add_other(depth);
        }
        add_ticks(counts.load, outcome == Outcome::load ? duration : 0);
    }

    // A hit: no duration, so most of what add() does for a timed node is not needed. Three
    // events in four are hits in a typical run, and this runs for each, on the collector or
    // at the end of the session: in line when the hit joins or starts the pending group at its
    // depth, its provider is known, and it adopts nothing (hit_adopts_nothing). Returns
    // whether it took that in-line path (for tests: quiet_for_hits foretells it).
    bool add_hit(std::uint32_t provider, std::uint32_t depth) {
        if (provider < counts_size_ && hit_adopts_nothing(depth) &&
            time_.add_nothing_in_line(depth)) [[likely]] {
            arguments_.add_nothing();
            count_hits(counts_[provider], 1);
            return true;
        }
        add_hit_out_of_line(provider, depth);
        return false;
    }

    // Whether a hit at `depth` right after this call would change nothing but its counts:
    // add_hit would take its in-line path and join the pending group at its depth. Then hits
    // may be counted apart and added with add_hits.
    bool quiet_for_hits(std::uint32_t depth) const {
        return time_.top_depth_is(depth) && hit_adopts_nothing(depth);
    }
    // `hits` hits of a provider that were quiet (quiet_for_hits) when they came.
    void add_hits(std::uint32_t provider, std::uint64_t hits) {
        time_.reserve_slot(provider);
        count_hits(counts_of(provider), hits);
    }

    // The memory of the timed node just added (hits and unfinished scopes have none); nodes
    // without memory are left out of the memory sums, which they would not change.
    void add_memory(std::uint32_t provider, std::uint32_t depth, const MemoryAmount& memory) {
        memory_.add(provider, depth, memory);
    }

    // The CPU time of the activity just added.
    void add_cpu(std::uint32_t provider, std::uint64_t ns) {
        if (provider < counts_size_) {
            add_ticks(counts_[provider].cpu_ns, ns);
        }
        arguments_.add_cpu(ns);
    }

    // Per activity and argument (ArgumentSums::Pair, by provider slot), summed into `sum`.
    void add_arguments_to(std::map<ArgumentSums::Pair, ArgumentSums::Sums>& sum) const {
        arguments_.add_to(sum);
    }

    // Per provider slot given to add(); slots never seen are absent or zero.
    std::vector<TickTotals> totals() const {
        std::vector<TickTotals> totals;
        add_to(totals);
        return totals;
    }

    void add_to(std::vector<TickTotals>& sum) const {
        sum.resize(std::max(sum.size(), counts_.size()));
        for (std::size_t slot = 0; slot < counts_.size(); ++slot) {
            const TickTotals& more = counts_[slot];
            TickTotals& to = sum[slot];
            to.count += more.count;
            to.hits += more.hits;
            to.misses += more.misses;
            add_ticks(to.total, time_.sums(slot).total);
            add_ticks(to.self, time_.sums(slot).self);
            if (slot < waits_.slots()) {
                add_ticks(to.blocked, waits_.sums(slot).total);
            }
            add_ticks(to.blocked_self, static_cast<std::uint64_t>(more.blocked_self));
            add_ticks(to.load, static_cast<std::uint64_t>(more.load));
            add_ticks(to.cpu_ns, static_cast<std::uint64_t>(more.cpu_ns));
        }
        sum.resize(std::max(sum.size(), memory_.slots()));
        for (std::size_t slot = 0; slot < memory_.slots(); ++slot) {
            sum[slot].memory_total = sum[slot].memory_total + memory_.sums(slot).total;
            sum[slot].memory_self = sum[slot].memory_self + memory_.sums(slot).self;
        }
    }

    // Entries held for pending nodes, for tests: at most (the most depths pending at once) x
    // (providers + 1).
    std::size_t pending_entries() const { return time_.pending_entries(); }

  private:
    TickTotals& counts_of(std::uint32_t provider) {
        if (provider >= counts_size_) [[unlikely]] {
            grow_counts(provider);
        }
        return counts_[provider];
    }
    [[gnu::noinline]] void grow_counts(std::uint32_t provider) {
        counts_.resize(std::size_t{provider} + 1);
        counts_size_ = provider + 1;
    }
    // Whether a hit at `depth` leaves the waits' and the arguments' sums alone (add_hit's
    // in-line path and quiet_for_hits both require it): no wait pending deeper, no argument
    // pending at all.
    bool hit_adopts_nothing(std::uint32_t depth) const {
        return waits_.adopts_nothing(depth) && arguments_.idle();
    }
    // Every case of a hit: its provider seen for the first time, a damaged stream, pending
    // waits or arguments.
    [[gnu::noinline]] void add_hit_out_of_line(std::uint32_t provider, std::uint32_t depth) {
        time_.add_nothing(provider, depth);
        waits_.add_other(depth);
        arguments_.add(provider, depth, 0, 0);
        count_hits(counts_of(provider), 1);
    }
    static void count_hits(TickTotals& counts, std::uint64_t hits) {
        counts.count += hits;
        counts.hits += hits;
    }

    // Adds modulo 2^64: ticks read from a file must not make a sum undefined.
    static void add_ticks(std::int64_t& sum, std::uint64_t ticks) {
        sum = static_cast<std::int64_t>(static_cast<std::uint64_t>(sum) + ticks);
    }

    InclusiveSums<std::uint64_t> time_;
    // The waits' durations, a wait inside a wait of its own provider counted once.
    InclusiveSums<std::uint64_t> waits_;
    InclusiveSums<MemoryAmount> memory_;
    ArgumentSums arguments_;
    std::vector<TickTotals> counts_;  // by provider slot: counts, waits' self, load and CPU time
    std::uint32_t counts_size_ = 0;   // counts_.size(), kept apart: no division to compare with
};

}  // namespace qprof::detail
