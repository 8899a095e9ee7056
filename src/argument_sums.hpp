// Per activity and argument (PROFILE_ACTIVITY_ARG), the runs and times of one thread, summed
// from its nodes in post-order as they complete, without the tree: the same for a live run
// that keeps totals only and for a completed tree (TotalsAccumulator holds one).
//
//   ArgumentSums sums;                          // one per thread
//   for (const Record& r : records)             // every node, in the order the thread wrote them
//       sums.add(provider_of(r), r.depth, argument_of(r), r.duration);
//   sums.add_to(by_pair);                       // the caller sums the threads
//
// A run inside a run of the same activity and argument counts once in the times, its outermost
// run's, as a provider re-entered inside itself does (InclusiveSums, inclusive_sums.hpp); every run
// counts in `runs`. A completed run stays pending, tagged with the depth of the shallowest node
// completed since, until a node shallower than that adopts it: in post-order, the pending runs
// deeper than a node are exactly those inside it. Runs of one activity and argument pending at
// one depth are merged, so what is held grows with the depths and pairs in flight, never with
// the runs; a thread without arguments pays one branch per node.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace qprof::detail {

class ArgumentSums {
  public:
    // An activity and its argument: the provider's slot in the high half, the argument's key
    // text id (1-based) in the low.
    using Pair = std::uint64_t;
    struct Sums {
        std::uint64_t runs = 0;
        std::uint64_t total = 0;   // ticks, summed modulo 2^64 as TotalsAccumulator's
        std::uint64_t cpu_ns = 0;  // thread CPU time of the runs that recorded it
    };

    // Every node in post-order: `argument` is the text id of an activity's argument, 0 for any
    // other node; `duration` in ticks.
    void add(std::uint32_t provider, std::uint32_t depth, std::uint32_t argument,
             std::uint64_t duration) {
        last_ = kNone;
        if (pending_.empty() && argument == 0) [[likely]] {
            return;
        }
        adopt(depth, argument == 0 ? kNone : pair_of(provider, argument));
        if (argument != 0) {
            const Pair pair = pair_of(provider, argument);
            Sums& sums = sums_[pair];
            ++sums.runs;
            sums.total += duration;
            last_ = pending_at(depth, pair);
            pending_[last_].total += duration;
        }
    }

    // Whether nothing is pending: then add() of a node without an argument only forgets the
    // last node (add_nothing).
    bool idle() const { return pending_.empty(); }
    void add_nothing() { last_ = kNone; }

    // The thread CPU time of the node just added, when it is an activity with an argument.
    void add_cpu(std::uint64_t ns) {
        if (last_ != kNone) {
            sums_[pending_[last_].pair].cpu_ns += ns;
            pending_[last_].cpu_ns += ns;
        }
    }

    void add_to(std::map<Pair, Sums>& sum) const {
        for (const auto& [pair, more] : sums_) {
            Sums& to = sum[pair];
            to.runs += more.runs;
            to.total += more.total;
            to.cpu_ns += more.cpu_ns;
        }
    }

    static Pair pair_of(std::uint32_t provider, std::uint32_t argument) {
        return Pair{provider} << 32 | argument;
    }

  private:
    static constexpr std::size_t kNone = ~std::size_t{0};

    // Completed runs of one pair inside the subtrees of the completed nodes at `depth` whose
    // parent has not ended: what they added to the pair's times.
    struct Pending {
        std::uint32_t depth;
        Pair pair;
        std::uint64_t total;
        std::uint64_t cpu_ns;
    };

    // The runs pending deeper than `depth` are the node's: a run of its own pair gives back
    // its times (the node's count instead), the others wait at the node's depth. pending_
    // stays ordered by depth.
    void adopt(std::uint32_t depth, Pair node) {
        if (pending_.empty()) {
            return;
        }
        if (pending_.back().depth == 0) {
            pending_.clear();  // runs inside roots: no node will ever adopt them
            return;
        }
        std::size_t first = pending_.size();
        while (first > 0 && pending_[first - 1].depth > depth) {
            --first;
        }
        if (first == pending_.size()) {
            return;  // nothing inside the node: a sibling or a node outside them
        }
        inside_.assign(pending_.begin() + static_cast<std::ptrdiff_t>(first), pending_.end());
        pending_.resize(first);
        for (const Pending& run : inside_) {
            if (run.pair == node) {
                Sums& sums = sums_[node];
                sums.total -= run.total;
                sums.cpu_ns -= run.cpu_ns;
                continue;
            }
            Pending& at = pending_[pending_at(depth, run.pair)];
            at.total += run.total;
            at.cpu_ns += run.cpu_ns;
        }
    }

    // The index of the pending entry of `pair` at `depth`, the deepest pending, made if absent.
    std::size_t pending_at(std::uint32_t depth, Pair pair) {
        for (std::size_t i = pending_.size(); i > 0 && pending_[i - 1].depth == depth; --i) {
            if (pending_[i - 1].pair == pair) {
                return i - 1;
            }
        }
        pending_.push_back(Pending{depth, pair, 0, 0});
        return pending_.size() - 1;
    }

    std::map<Pair, Sums> sums_;
    std::vector<Pending> pending_;  // by depth, shallowest first
    std::vector<Pending> inside_;   // adopt's, kept for its capacity
    std::size_t last_ = kNone;      // the pending entry of the node just added
};

}  // namespace qprof::detail
