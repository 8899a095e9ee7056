// The nodes that rank first by a measure of their shape -- their immediate children, or their
// depth -- then by their duration: the page's lists of the widest and deepest nodes
// (html_shapes.cpp). The widest are found while a thread's pre-order is made.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace qprof::detail {

// A node as a list of shapes ranks it. Of nodes alike in measure and duration, the earlier
// thread, then the earlier node in pre-order, comes first: whatever order they are offered in.
struct ShapeRank {
    std::uint32_t measure;
    std::int64_t ns;
    std::uint32_t thread;
    std::uint32_t n;  // pre-order index in its thread
};

inline bool ranks_before(const ShapeRank& a, const ShapeRank& b) {
    if (a.measure != b.measure) {
        return a.measure > b.measure;
    }
    if (a.ns != b.ns) {
        return a.ns > b.ns;
    }
    return a.thread != b.thread ? a.thread < b.thread : a.n < b.n;
}

// The `count` nodes offered that rank first, best first (count above 0).
class TopShapes {
  public:
    explicit TopShapes(std::size_t count) : count_(count) { best_.reserve(count + 1); }

    // The least measure a node needs to be offered, in a value a walk keeps in a register: any
    // measure from 1 while fewer than `count` are kept, then the last one's.
    std::uint32_t floor() const { return best_.size() < count_ ? 1 : best_.back().measure; }
    // A node that ranks after the last one kept costs a comparison; one that enters, an
    // insertion. So a walk that meets many nodes alike (hits at the greatest depth of a scan, all
    // of no duration) should meet them in the order they rank in, where each is turned away.
    void offer(const ShapeRank& ranked) {
        if (best_.size() == count_ && !ranks_before(ranked, best_.back())) {
            return;
        }
        best_.insert(std::upper_bound(best_.begin(), best_.end(), ranked, ranks_before), ranked);
        if (best_.size() > count_) {
            best_.pop_back();
        }
    }
    const std::vector<ShapeRank>& ranked() const { return best_; }

  private:
    std::size_t count_;
    std::vector<ShapeRank> best_;
};

}  // namespace qprof::detail
