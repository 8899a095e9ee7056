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
#include <qprof/trace.hpp>
#include <vector>

namespace qprof::detail {

// One provider's totals in raw clock ticks, with the meaning of ProviderTotals.
struct TickTotals {
    std::uint64_t count = 0, hits = 0, misses = 0;
    std::int64_t total = 0, self = 0, blocked = 0, load = 0;
    std::int64_t cpu_ns = 0;  // activities' thread CPU time: nanoseconds already
};

// Nodes arrive as TreeBuilder sees them: a node at depth d adopts every pending node deeper
// than d. Pending siblings are merged into one group per depth, holding what their parent
// needs: the sum of their durations (for its self time) and where their subtrees started.
//
// A provider re-entered inside itself counts once in its total. In post-order a node's
// subtree is the run of nodes since the subtree started, so when a node of provider p
// arrives, p's total becomes its value at that start plus the node's duration: what the
// p-nodes inside added is replaced by their outermost p-ancestor. To recall p's total at the
// start of any pending group, each provider keeps the changes that were the first after some
// pending group started -- at most one per pending group.
class TotalsAccumulator {
  public:
    // One node in post-order, with its depth as recorded; a hit has no duration.
    void add(std::uint32_t provider, std::uint32_t depth, Outcome outcome, std::int64_t start,
             std::int64_t end) {
        const std::uint64_t serial = ++serial_;
        const std::uint64_t duration =
            outcome == Outcome::hit
                ? 0
                : static_cast<std::uint64_t>(end) - static_cast<std::uint64_t>(start);
        const Adopted children = adopt_children(depth, serial, duration);
        if (provider >= totals_.size()) {
            totals_.resize(std::size_t{provider} + 1);
            providers_.resize(std::size_t{provider} + 1);
        }
        TickTotals& totals = totals_[provider];
        ++totals.count;
        totals.hits += outcome == Outcome::hit;
        totals.misses += outcome == Outcome::miss;
        add_ticks(totals.self, duration - children.time);
        add_ticks(totals.blocked, outcome == Outcome::blocked ? duration : 0);
        add_ticks(totals.load, outcome == Outcome::load ? duration : 0);
        set_total(provider, children.start, serial, duration);
    }

    // The CPU time of the activity just added.
    void add_cpu(std::uint32_t provider, std::uint64_t ns) {
        if (provider < totals_.size()) {
            add_ticks(totals_[provider].cpu_ns, ns);
        }
    }

    // Per provider slot given to add(); slots never seen are absent or zero.
    const std::vector<TickTotals>& totals() const { return totals_; }

    void add_to(std::vector<TickTotals>& sum) const {
        if (sum.size() < totals_.size()) {
            sum.resize(totals_.size());
        }
        for (std::size_t slot = 0; slot < totals_.size(); ++slot) {
            const TickTotals& more = totals_[slot];
            sum[slot].count += more.count;
            sum[slot].hits += more.hits;
            sum[slot].misses += more.misses;
            add_ticks(sum[slot].total, static_cast<std::uint64_t>(more.total));
            add_ticks(sum[slot].self, static_cast<std::uint64_t>(more.self));
            add_ticks(sum[slot].blocked, static_cast<std::uint64_t>(more.blocked));
            add_ticks(sum[slot].load, static_cast<std::uint64_t>(more.load));
            add_ticks(sum[slot].cpu_ns, static_cast<std::uint64_t>(more.cpu_ns));
        }
    }

    // Entries held for pending nodes, for tests: at most (the most depths pending at once) x
    // (providers + 1).
    std::size_t pending_entries() const {
        std::size_t entries = groups_.size();
        for (const ProviderChanges& changes : providers_) {
            entries += changes.kept.size();
        }
        return entries;
    }

  private:
    // Completed nodes at one depth waiting for their parent.
    struct Group {
        std::uint32_t depth;
        std::uint64_t start;  // serial of the first node of the first subtree
        std::uint64_t time;   // the nodes' durations summed
    };
    struct Adopted {
        std::uint64_t start;  // serial of the first node of the adopting node's subtree
        std::uint64_t time;   // its children's durations summed
    };
    // A provider's total before a change, kept while a group that started before the change
    // and after the previous one is pending.
    struct Change {
        std::uint64_t serial;  // the node that made the change
        std::uint64_t before;
        std::uint32_t group;        // the lowest such group when the change was made
        std::uint64_t group_start;  // its start, to tell it from a later group in its place
    };
    struct ProviderChanges {
        std::uint64_t last = 0;  // serial of the last change
        std::vector<Change> kept;
    };

    // Adds modulo 2^64: ticks read from a file must not make a sum undefined.
    static void add_ticks(std::int64_t& sum, std::uint64_t ticks) {
        sum = static_cast<std::int64_t>(static_cast<std::uint64_t>(sum) + ticks);
    }

    // Takes the pending groups deeper than the node (its children), then leaves the node
    // pending at its depth.
    Adopted adopt_children(std::uint32_t depth, std::uint64_t serial, std::uint64_t duration) {
        Adopted children{serial, 0};
        while (!groups_.empty() && groups_.back().depth > depth) {
            children.start = groups_.back().start;
            children.time += groups_.back().time;
            groups_.pop_back();
        }
        if (!groups_.empty() && groups_.back().depth == depth) {
            groups_.back().time += duration;
        } else {
            groups_.push_back(Group{depth, children.start, duration});
        }
        return children;
    }

    void set_total(std::uint32_t provider, std::uint64_t subtree_start, std::uint64_t serial,
                   std::uint64_t duration) {
        ProviderChanges& changes = providers_[provider];
        const auto now = static_cast<std::uint64_t>(totals_[provider].total);
        const std::uint64_t total = total_at(changes, subtree_start, now) + duration;
        if (total == now) {
            return;
        }
        if (groups_.back().start > changes.last) {  // a pending group will need `now`
            keep(changes, serial, now);
        }
        changes.last = serial;
        totals_[provider].total = static_cast<std::int64_t>(total);
    }

    // The provider's total when the subtree starting at `start` began. The changes kept after
    // the first one since then were for groups that subtree's root has just adopted.
    static std::uint64_t total_at(ProviderChanges& changes, std::uint64_t start,
                                  std::uint64_t now) {
        if (changes.last < start) {
            return now;
        }
        std::vector<Change>& kept = changes.kept;
        while (kept.size() >= 2 && kept[kept.size() - 2].serial >= start) {
            kept.pop_back();
        }
        assert(!kept.empty() && kept.back().serial >= start);
        return kept.back().before;
    }

    void keep(ProviderChanges& changes, std::uint64_t serial, std::uint64_t before) {
        std::vector<Change>& kept = changes.kept;
        while (!kept.empty() && !still_needed(kept.back())) {
            kept.pop_back();  // its groups were adopted: so were those of any later change
        }
        const auto first = std::partition_point(
            groups_.begin(), groups_.end(),
            [last = changes.last](const Group& group) { return group.start <= last; });
        const auto index = static_cast<std::uint32_t>(first - groups_.begin());
        kept.push_back(Change{serial, before, index, first->start});
    }

    // A start is a node's serial: a group pushed later in the same place has another, while
    // the group that took in the groups above it keeps the start of the lowest, still needed.
    bool still_needed(const Change& change) const {
        return change.group < groups_.size() && groups_[change.group].start == change.group_start;
    }

    std::uint64_t serial_ = 0;
    std::vector<Group> groups_;  // by increasing depth, as the builder's pending nodes
    std::vector<TickTotals> totals_;
    std::vector<ProviderChanges> providers_;  // by provider slot, as totals_
};

}  // namespace qprof::detail
