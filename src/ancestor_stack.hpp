// The ancestors of the node a walk over a thread's nodes is at, when the walk goes backwards
// through post-order (NodeStore::walk_backwards): there a node comes before its descendants, so
// the ancestors still open are those whose subtree starts at or before it, innermost last.
//
//   AncestorStack<Open> open;                     // Open has `first`: where its subtree starts
//   nodes.walk_backwards([&](std::uint32_t i, ...) {
//       open.leave_before(i, [](const Open& left) { ... });
//       ... open.innermost() is i's parent ...
//       if (first < i) open.enter(Open{first, ...});
//   });
#pragma once

#include <cstdint>
#include <vector>

namespace qprof::detail {

template <typename Entry>
class AncestorStack {
  public:
    // Leaves the ancestors whose subtree starts after node i, innermost first, each given to
    // `left`; returns whether any was left. The innermost one's start is kept apart, so that a
    // node that leaves none -- most of a scan's, its leaf hits -- reads nothing of the stack.
    template <typename Left>
    bool leave_before(std::uint32_t i, Left&& left) {
        if (innermost_first_ <= i) {
            return false;
        }
        do {
            left(entries_.back());
            entries_.pop_back();
        } while (!entries_.empty() && entries_.back().first > i);
        innermost_first_ = entries_.empty() ? 0 : entries_.back().first;  // no node is before 0
        return true;
    }
    bool leave_before(std::uint32_t i) {
        return leave_before(i, [](const Entry&) {});
    }
    // Leaves them all, innermost first, each given to `left`.
    template <typename Left>
    void leave_all(Left&& left) {
        for (; !entries_.empty(); entries_.pop_back()) {
            left(entries_.back());
        }
        innermost_first_ = 0;
    }
    void enter(const Entry& entry) {
        entries_.push_back(entry);
        innermost_first_ = entry.first;
    }
    bool empty() const { return entries_.empty(); }
    std::uint32_t size() const { return static_cast<std::uint32_t>(entries_.size()); }
    Entry& innermost() { return entries_.back(); }
    const Entry& innermost() const { return entries_.back(); }

  private:
    std::vector<Entry> entries_;
    std::uint32_t innermost_first_ = 0;
};

}  // namespace qprof::detail
