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
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <map>
#include <qprof/trace.hpp>
#include <vector>

#include "argument_sums.hpp"

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

// Per provider, the self and the inclusive sum of one amount each node carries (a duration, or
// memory), from the nodes in the order TreeBuilder sees them: a node at depth d adopts every
// pending node deeper than d. Pending siblings are merged into one group per depth, holding
// what their parent needs: the sum of their amounts (for its self) and where their subtrees
// started. Amounts add modulo 2^64: values read from a file must not make a sum undefined.
//
// A provider re-entered inside itself counts once in its total. In post-order a node's
// subtree is the run of nodes since the subtree started, so when a node of provider p
// arrives, p's total becomes its value at that start plus the node's amount: what the
// p-nodes inside added is replaced by their outermost p-ancestor. To recall p's total at the
// start of any pending group, each provider keeps the changes that were the first after some
// pending group started -- at most one per pending group.
template <typename Amount>
class InclusiveSums {
  public:
    struct Sums {
        Amount total{};
        Amount self{};
    };

    // Returns the node's self: its amount less its children's. Inline for the common case, a
    // provider not re-entered inside the node; the rest out of line.
    Amount add(std::uint32_t provider, std::uint32_t depth, Amount amount) {
        make_room(provider);
        const std::uint64_t serial = ++serial_;
        const Adopted children = adopt_children(depth, serial, amount);
        Slot& slot = slots_[provider];
        const Amount self = amount - children.amount;
        slot.sums.self = slot.sums.self + self;
        if (slot.last < children.start) [[likely]] {     // no change of its own inside the node
            if (!(amount == Amount{})) {                 // otherwise the total stays
                if (groups_.back().start > slot.last) {  // a pending group will need it
                    keep(slot, serial, slot.sums.total);
                }
                slot.last = serial;
                slot.sums.total = slot.sums.total + amount;
            }
        } else {
            set_reentered_total(slot, children.start, serial, amount);
        }
        return self;
    }

    // A node of no provider these sums count (a query when they count waits): it changes no
    // sum, but adopts the pending groups deeper than it, so that its subtree's nodes are not
    // taken for a later node's. One that adopts nothing needs no group: nothing can tell it
    // from its siblings.
    void add_other(std::uint32_t depth) {
        if (!adopts_nothing(depth)) [[unlikely]] {
            adopt_children(depth, ++serial_, Amount{});
        }
    }

    // Whether add_other(depth) would change nothing: no pending group deeper than `depth`.
    bool adopts_nothing(std::uint32_t depth) const {
        return groups_.empty() || groups_.back().depth <= depth;
    }

    // add(provider, depth, Amount{}) for a node that adds nothing (a hit). One that adopts
    // nothing changes no sum: it joins the pending group at its depth, which needs no serial
    // (serials are only ever compared), or starts one.
    void add_nothing(std::uint32_t provider, std::uint32_t depth) {
        make_room(provider);
        if (!add_nothing_in_line(depth)) [[unlikely]] {
            add_out_of_line(provider, depth);  // it adopts the deeper groups (a damaged stream)
        }
    }

    // add_nothing for a provider already given to add() or add_nothing(), when it adopts
    // nothing; returns false, having changed nothing, when it would adopt pending groups.
    bool add_nothing_in_line(std::uint32_t depth) {
        if (groups_.empty() || groups_.back().depth < depth) {
            groups_.push_back(Group{depth, ++serial_, Amount{}});
            return true;
        }
        return groups_.back().depth == depth;
    }

    // Whether the deepest pending group is at `depth`.
    bool top_depth_is(std::uint32_t depth) const {
        return !groups_.empty() && groups_.back().depth == depth;
    }
    // Makes the provider's slot, as add() would.
    void reserve_slot(std::uint32_t provider) { make_room(provider); }

    // Provider slots given to add() or add_nothing(): slots() of them, and each one's sums.
    std::size_t slots() const { return slots_.size(); }
    const Sums& sums(std::size_t slot) const { return slots_[slot].sums; }

    // Entries held for pending nodes: at most (the most depths pending at once) x
    // (providers + 1).
    std::size_t pending_entries() const {
        std::size_t entries = groups_.size();
        for (const Slot& slot : slots_) {
            entries += slot.kept.size();
        }
        return entries;
    }

  private:
    // Completed nodes at one depth waiting for their parent.
    struct Group {
        std::uint32_t depth;
        std::uint64_t start;  // serial of the first node of the first subtree
        Amount amount;        // the nodes' amounts summed
    };
    struct Adopted {
        std::uint64_t start;  // serial of the first node of the adopting node's subtree
        Amount amount;        // its children's amounts summed
    };
    // A provider's total before a change, kept while a group that started before the change
    // and after the previous one is pending.
    struct Change {
        std::uint64_t serial;  // the node that made the change
        Amount before;
        std::uint32_t group;        // the lowest such group when the change was made
        std::uint64_t group_start;  // its start, to tell it from a later group in its place
    };
    // One provider's sums and changes, together: one bounds check and one address per node.
    struct Slot {
        Sums sums;
        std::uint64_t last = 0;  // serial of the last change
        std::vector<Change> kept;
    };

    void make_room(std::uint32_t provider) {
        if (provider >= slot_count_) [[unlikely]] {
            grow(provider);
        }
    }
    // Out of line, so that the paths taken for each hit stay small enough to inline.
    [[gnu::noinline]] void grow(std::uint32_t provider) {
        slots_.resize(std::size_t{provider} + 1);
        slot_count_ = provider + 1;
    }
    [[gnu::noinline]] void add_out_of_line(std::uint32_t provider, std::uint32_t depth) {
        add(provider, depth, Amount{});
    }

    // Takes the pending groups deeper than the node (its children), then leaves the node
    // pending at its depth.
    Adopted adopt_children(std::uint32_t depth, std::uint64_t serial, const Amount& amount) {
        Adopted children{serial, Amount{}};
        while (!groups_.empty() && groups_.back().depth > depth) {
            children.start = groups_.back().start;
            children.amount = children.amount + groups_.back().amount;
            groups_.pop_back();
        }
        if (!groups_.empty() && groups_.back().depth == depth) {
            groups_.back().amount = groups_.back().amount + amount;
        } else {
            groups_.push_back(Group{depth, children.start, amount});
        }
        return children;
    }

    // A node whose subtree changed its provider's total (a provider re-entered inside
    // itself): the total becomes its value when the subtree started plus the node's amount,
    // so that what the nodes inside added is replaced by their outermost ancestor's.
    [[gnu::noinline]] void set_reentered_total(Slot& slot, std::uint64_t subtree_start,
                                               std::uint64_t serial, const Amount& amount) {
        const Amount now = slot.sums.total;
        const Amount total = total_at(slot, subtree_start) + amount;
        if (total == now) {
            return;
        }
        if (groups_.back().start > slot.last) {  // a pending group will need `now`
            keep(slot, serial, now);
        }
        slot.last = serial;
        slot.sums.total = total;
    }

    // The provider's total when the subtree starting at `start` began, some change having been
    // made since. The changes kept after the first one since then were for groups that
    // subtree's root has just adopted.
    static Amount total_at(Slot& slot, std::uint64_t start) {
        std::vector<Change>& kept = slot.kept;
        while (kept.size() >= 2 && kept[kept.size() - 2].serial >= start) {
            kept.pop_back();
        }
        assert(!kept.empty() && kept.back().serial >= start);
        return kept.back().before;
    }

    [[gnu::noinline]] void keep(Slot& slot, std::uint64_t serial, const Amount before) {
        std::vector<Change>& kept = slot.kept;
        while (!kept.empty() && !still_needed(kept.back())) {
            kept.pop_back();  // its groups were adopted: so were those of any later change
        }
        // The lowest group that started after the last change. Starts grow up the stack, and
        // the group sought is most often the top one or just below: searched from the top.
        std::size_t index = groups_.size() - 1;
        while (index > 0 && groups_[index - 1].start > slot.last) {
            --index;
        }
        kept.push_back(
            Change{serial, before, static_cast<std::uint32_t>(index), groups_[index].start});
    }

    // A start is a node's serial: a group pushed later in the same place has another, while
    // the group that took in the groups above it keeps the start of the lowest, still needed.
    bool still_needed(const Change& change) const {
        return change.group < groups_.size() && groups_[change.group].start == change.group_start;
    }

    std::uint64_t serial_ = 0;
    std::vector<Group> groups_;     // by increasing depth, as the builder's pending nodes
    std::vector<Slot> slots_;       // by provider slot
    std::uint32_t slot_count_ = 0;  // slots_.size(), kept apart: no division to compare with
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
    // depth, its provider is known, and no wait or argument is pending deeper (or at all).
    void add_hit(std::uint32_t provider, std::uint32_t depth) {
        if (provider < counts_size_ && waits_.adopts_nothing(depth) && arguments_.idle() &&
            time_.add_nothing_in_line(depth)) [[likely]] {
            arguments_.add_nothing();
            TickTotals& counts = counts_[provider];
            ++counts.count;
            ++counts.hits;
            return;
        }
        add_hit_out_of_line(provider, depth);
    }

    // Whether a hit at `depth` right after this call would change nothing but its counts:
    // add_hit would take its in-line path and join the pending group at its depth. Then hits
    // may be counted apart and added with add_hits.
    bool quiet_for_hits(std::uint32_t depth) const {
        return time_.top_depth_is(depth) && waits_.adopts_nothing(depth) && arguments_.idle();
    }
    // `hits` hits of a provider that were quiet (quiet_for_hits) when they came.
    void add_hits(std::uint32_t provider, std::uint64_t hits) {
        time_.reserve_slot(provider);
        TickTotals& counts = counts_of(provider);
        counts.count += hits;
        counts.hits += hits;
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
    // Every case of a hit: its provider seen for the first time, a damaged stream, pending
    // waits or arguments.
    [[gnu::noinline]] void add_hit_out_of_line(std::uint32_t provider, std::uint32_t depth) {
        time_.add_nothing(provider, depth);
        waits_.add_other(depth);
        arguments_.add(provider, depth, 0, 0);
        TickTotals& counts = counts_of(provider);
        ++counts.count;
        ++counts.hits;
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
