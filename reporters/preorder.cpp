#include "preorder.hpp"

namespace qprof::detail {

Preorder::Preorder(const ThreadTrace& thread)
    : thread_(&thread),
      post_(thread.nodes.size()),
      depth_(thread.nodes.size()),
      parent_(thread.nodes.size()) {
    // Walking post-order backwards meets each parent before its children. A node's subtree
    // starts at `first` in post-order; in pre-order its ancestors come first too, so it starts
    // that many places later.
    struct Ancestor {
        std::uint32_t first;  // where its subtree starts in post-order
        std::uint32_t n;      // its pre-order index
    };
    std::vector<Ancestor> open;  // ancestors of the current node with children, innermost last
    const NodeVector& nodes = thread.nodes;
    const std::uint32_t count = size();
    for (std::uint32_t i = count; i-- > 0;) {
        const Node& node = nodes[i];
        const std::uint32_t first = node.first;
        while (!open.empty() && open.back().first > i) {
            open.pop_back();
        }
        const auto depth = static_cast<std::uint32_t>(open.size());
        const std::uint32_t n = first + depth;
        post_[n] = i;
        depth_[n] = depth;
        parent_[n] = open.empty() ? count : open.back().n;
        if (first < i) {  // a leaf is no one's ancestor: it would leave the stack next
            open.push_back(Ancestor{first, n});
            hits_are_leaves_ = hits_are_leaves_ && node.outcome != Outcome::hit;
        }
    }
}

std::int64_t Preorder::run_duration_ns(std::uint32_t from, std::uint32_t to) const {
    std::int64_t total = 0;
    for (std::uint32_t n = from; n < to; n = end(n)) {
        total += duration_ns(n);
    }
    return total;
}

}  // namespace qprof::detail
