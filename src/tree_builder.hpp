// Rebuilds one thread's tree from its records. Records arrive in post-order (a scope is
// written when it ends), each with its depth: a scope at depth d adopts every node
// completed since at a depth greater than d. The nodes are stored in that same post-order,
// so a subtree is a contiguous range and no child lists are needed.
#pragma once

#include <cstdint>
#include <qprof/detail/recorder.hpp>
#include <qprof/trace.hpp>
#include <vector>

namespace qprof::detail {

// Calls on_hit(head) or on_scope(head, start, end) for each complete record in [begin, end)
// and returns how many there were. Stops at a record it does not know or one cut off by end.
template <typename OnHit, typename OnScope>
std::uint64_t for_each_record(const std::uint64_t* begin, const std::uint64_t* end, OnHit&& on_hit,
                              OnScope&& on_scope) {
    std::uint64_t records = 0;
    for (const std::uint64_t* pos = begin; pos < end; ++records) {
        const RecordKind kind = head_kind(*pos);
        if (kind < RecordKind::hit || kind > RecordKind::load || end - pos < record_words(kind)) {
            break;
        }
        if (kind == RecordKind::hit) {
            on_hit(pos[0]);
        } else {
            on_scope(pos[0], pos[1], pos[2]);
        }
        pos += record_words(kind);
    }
    return records;
}

class TreeBuilder {
  public:
    std::uint64_t add_records(const std::uint64_t* begin, const std::uint64_t* end) {
        return for_each_record(
            begin, end, [this](std::uint64_t head) { add_hit(head); },
            [this](std::uint64_t head, std::uint64_t start, std::uint64_t stop) {
                add_scope(head, start, stop);
            });
    }

    void add_hit(std::uint64_t head);
    // A timed record. Until the trace is completed, node times are raw clock ticks.
    void add_scope(std::uint64_t head, std::uint64_t start, std::uint64_t end);

    std::vector<Node>& nodes() { return nodes_; }

  private:
    void add(Node node);

    std::vector<Node> nodes_;
    std::vector<std::uint32_t> pending_;  // completed nodes whose parent has not ended yet
};

Outcome outcome_of(RecordKind kind);

}  // namespace qprof::detail
