// Rebuilds one thread's tree from its records. Records arrive in post-order (a scope is
// written when it ends), each with its depth: a scope at depth d adopts every node
// completed since at a depth greater than d. The nodes are stored in that same post-order,
// so a subtree is a contiguous range and no child lists are needed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <qprof/detail/recorder.hpp>
#include <qprof/trace.hpp>
#include <vector>

#include "key_texts.hpp"
#include "measures.hpp"
#include "record_parser.hpp"
#include "totals.hpp"

namespace qprof::detail {

// At namespace scope: a constexpr array local to outcome_of was copied onto the stack for
// every record.
inline constexpr Outcome kOutcomeOfKind[] = {Outcome::miss,     Outcome::hit,     Outcome::miss,
                                             Outcome::activity, Outcome::blocked, Outcome::load};

constexpr Outcome outcome_of(RecordKind kind) {
    const auto index = static_cast<std::size_t>(kind);
    return index < std::size(kOutcomeOfKind) ? kOutcomeOfKind[index] : Outcome::miss;
}

// Whether a node's memory counts: a finished timed node's (a hit or a scope cut by the end of the
// session has none).
constexpr bool carries_memory(std::uint64_t head) {
    return head_kind(head) != RecordKind::hit && head_kind(head) != RecordKind::key &&
           head_kind(head) != RecordKind::memory && !head_unfinished(head) && head != 0;
}

// Which site ids some record used: a byte each, so that marking one, for every record, is one
// store (a std::vector<bool> took a dozen instructions to set a bit). An enumeration, not a
// character type: a store through a character type may alias anything, and made the compiler
// load every vector's bounds again after it, for each record.
enum class SiteSeen : std::uint8_t { no, yes };
using SitesSeen = std::vector<SiteSeen>;

// Marks a site id as used by some record, growing the set as ids appear.
inline void mark_site_seen(SitesSeen& seen, std::uint32_t site) {
    if (site >= seen.size()) [[unlikely]] {
        seen.resize(site + 1, SiteSeen::no);
    }
    seen[site] = SiteSeen::yes;
}

class TreeBuilder {
  public:
    // With keys, every node gets an entry in keys() (0 when it has no key). Without, the
    // first key record (an activity's argument) starts them.
    explicit TreeBuilder(bool keys = false) : keys_recorded_(keys) {}

    // Adds the complete records in [begin, end); returns where it stopped (see
    // parse_records).
    template <typename Keys>
    const std::uint64_t* add_records(const std::uint64_t* begin, const std::uint64_t* end,
                                     Keys& key_texts) {
        reserve_for(static_cast<std::size_t>(end - begin));
        return parse_records(begin, end, key_texts, *this);
    }

    // parse_records' sink.
    template <typename Record>
    void key(std::uint32_t depth, const Record& record) {
        if (!keys_recorded_) {  // an activity's argument, keys or not: from here on, keys
            keys_recorded_ = true;
            keys_.assign(nodes_.size(), 0);
        }
        pending_key(depth) = record.text_id();
    }
    // A hit adopts nothing (but in a damaged stream, which add() takes): a plain leaf hit, kept
    // in its head alone. In line in parse_records' loop: called, it took 20 instructions a hit
    // more.
    [[gnu::always_inline]] void hit(std::uint64_t head) {
        const std::uint32_t depth = head_depth(head);
        if (pending_.back().level > level_of(depth)) [[unlikely]] {
            add(head, 0, 0);
            return;
        }
        const auto index = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_leaf_hit(node_head(head, depth, Outcome::hit));
        settle(head_site(head), depth, index);
    }
    // A timed node: parse_records gives kinds 2 to 5 only.
    void node(std::uint64_t head, std::uint64_t start, std::uint64_t end) {
        const std::uint32_t depth = head_depth(head);
        const Children children = adopt_pending(depth);
        nodes_.push_back(node_head(head, depth, timed_outcome(head_kind(head))),
                         NodeBody{children.extent, children.first, static_cast<std::int64_t>(start),
                                  static_cast<std::int64_t>(end)});
        settle(head_site(head), depth, children.first);
    }
    void size(std::uint32_t site, std::uint64_t bytes) { measures_.size(site, bytes); }
    void counter(std::uint32_t site, std::uint64_t tick, std::int64_t value) {
        measures_.counter(site, tick, value);
    }
    // The memory of the last node; the first such record starts an entry for every node.
    void memory(const MemoryAmount& amount) {
        if (nodes_.empty() || nodes_.heads().back().outcome == Outcome::hit ||
            nodes_.heads().back().unfinished) {
            return;  // as the totals builder: a finished timed node's memory only
        }
        memory_.resize(nodes_.size());
        memory_.back() = amount.use();
    }
    void cpu(std::uint64_t ns) {
        const auto last = static_cast<std::uint32_t>(nodes_.size() - 1);
        if (!nodes_.empty() && nodes_.heads().back().outcome == Outcome::activity &&
            (activity_cpu_.empty() || activity_cpu_.back().node != last)) {
            activity_cpu_.push_back(ActivityCpu{last, static_cast<std::int64_t>(ns)});
        }
    }

    // Adds one record of any kind; a hit has start and end 0. Until the trace is completed,
    // node times are raw clock ticks. hit() and node() are its paths for every event; a hit
    // that adopts nodes here (a damaged stream) keeps a body.
    [[gnu::noinline]] void add(std::uint64_t head, std::uint64_t start, std::uint64_t end) {
        const std::uint32_t depth = head_depth(head);
        const Children children = adopt_pending(depth);
        const NodeHead node = node_head(head, depth, outcome_of(head_kind(head)));
        nodes_.push_back(Node{node.site, node.depth, node.unfinished, node.outcome, children.extent,
                              children.first, static_cast<std::int64_t>(start),
                              static_cast<std::int64_t>(end)});
        settle(node.site, depth, children.first);
    }

    NodeStore& nodes() { return nodes_; }
    std::vector<std::uint32_t>& keys() { return keys_; }
    // Per node when some record carried memory (entries for the last nodes may be missing),
    // otherwise empty.
    std::vector<MemoryUse>& memory() { return memory_; }
    std::vector<ActivityCpu>& activity_cpu() { return activity_cpu_; }
    // Sizes and counters, every counter value kept.
    const MeasureBuilder& measures() const { return measures_; }
    // Which site ids the records used.
    const SitesSeen& sites_seen() const { return sites_seen_; }

  private:
    // The outcome of a timed kind (2 to 5), from a table packed in a word: no bounds to check.
    static Outcome timed_outcome(RecordKind kind) {
        constexpr std::uint64_t kPacked = [] {
            std::uint64_t packed = 0;
            for (std::size_t k = 0; k < std::size(kOutcomeOfKind); ++k) {
                packed |= std::uint64_t{static_cast<std::uint8_t>(kOutcomeOfKind[k])} << (8 * k);
            }
            return packed;
        }();
        return static_cast<Outcome>((kPacked >> (8 * (static_cast<unsigned>(kind) & 7))) & 0xff);
    }

    // A node's children: where its subtree starts (its own index when it has none) and how
    // many there are.
    struct Children {
        std::uint32_t first;
        std::uint32_t extent;
    };

    // Takes the pending nodes deeper than `depth`: the children of the node completing there. In
    // a well-formed stream they are one group, at the next depth; a damaged one may leave
    // several deeper groups, all adopted.
    Children adopt_pending(std::uint32_t depth) {
        Children children{static_cast<std::uint32_t>(nodes_.size()), 0};
        const std::uint32_t level = level_of(depth);
        while (pending_.back().level > level) {
            children.first = pending_.back().first;
            children.extent += pending_.back().count;
            pending_.pop_back();
        }
        return children;
    }

    // A node's head, built whole before it is stored (its bit-fields written once, not each
    // read back and written in place).
    static NodeHead node_head(std::uint64_t head, std::uint32_t depth, Outcome outcome) {
        return NodeHead{head_site(head), depth & kNodeDepthMask, head_unfinished(head), outcome};
    }

    // What follows a node's store: its site marked used, the node left pending at its depth
    // (its subtree starting at `first`), its key taken. Always in line: it is on the path of
    // every record.
    [[gnu::always_inline]] void settle(std::uint32_t site, std::uint32_t depth,
                                       std::uint32_t first) {
        mark_site_seen(sites_seen_, site);
        const std::uint32_t level = level_of(depth);
        if (Siblings& last = pending_.back(); last.level == level) {
            ++last.count;
        } else {
            pending_.push_back(Siblings{first, 1, level});
        }
        if (keys_recorded_) {
            std::uint32_t& key = pending_key(depth);
            keys_.push_back(key);
            key = 0;
        }
    }

    static constexpr std::uint32_t kNodeDepthMask = (1u << 23) - 1;  // NodeHead::depth's 23 bits

    // Completed nodes whose parent has not ended yet, grouped: consecutive ones at one depth are
    // siblings (a node ending between them would have adopted the first), so that a node takes
    // its children as one group, where a loop took them one at a time (9 % of the collector's
    // instructions on a mixed stream). The groups' depths rise from the first to the last.
    struct Siblings {
        std::uint32_t first;  // where the first one's subtree starts
        std::uint32_t count;
        std::uint32_t level;  // their depth + 1; 0 for the sentinel below every group
    };
    static std::uint32_t level_of(std::uint32_t depth) { return depth + 1; }

    // The key waiting for the next node completed at this depth.
    std::uint32_t& pending_key(std::uint32_t depth) {
        if (depth >= pending_keys_.size()) {
            pending_keys_.resize(depth + 1, 0);
        }
        return pending_keys_[depth];
    }

    // Room for `words` more words of records, growing geometrically: as many nodes (a record is
    // a word at least) and a third as many bodies (a timed record is three; a damaged stream's
    // hits that adopt nodes may need more, which the store makes room for as they come).
    void reserve_for(std::size_t words) {
        const std::size_t nodes = nodes_.size() + words;
        const std::size_t bodies = nodes_.bodies().size() + words / 3;
        if (nodes_.capacity() < nodes || nodes_.body_capacity() < bodies) {
            nodes_.reserve(grown(nodes_.capacity(), nodes), grown(nodes_.body_capacity(), bodies));
        }
    }
    static std::size_t grown(std::size_t capacity, std::size_t needed) {
        return capacity >= needed ? capacity : std::max(capacity * 2, needed);
    }

    NodeStore nodes_;
    // Never empty: the sentinel first, which no node adopts or joins.
    std::vector<Siblings> pending_{Siblings{0, 0, 0}};
    SitesSeen sites_seen_;
    bool keys_recorded_ = false;
    std::vector<std::uint32_t> keys_;          // per node, when keys are recorded
    std::vector<std::uint32_t> pending_keys_;  // by depth
    std::vector<MemoryUse> memory_;
    std::vector<ActivityCpu> activity_cpu_;
    MeasureBuilder measures_{true};
};

}  // namespace qprof::detail
