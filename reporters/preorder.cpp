#include "preorder.hpp"

#include "ancestor_stack.hpp"

namespace qprof::detail {

Preorder::Preorder(const ThreadTrace& thread)
    : thread_(&thread),
      heads_(thread.nodes.heads().data()),
      bodies_(thread.nodes.bodies().data()),
      post_(thread.nodes.size()),
      body_(thread.nodes.size()),
      depth_(thread.nodes.size()),
      parent_(thread.nodes.size()) {
    // Walking post-order backwards meets each parent before its children. A node's subtree
    // starts at `first` in post-order; in pre-order its ancestors come first too, so it starts
    // that many places later.
    struct Ancestor {
        std::uint32_t first;  // where its subtree starts in post-order
        std::uint32_t n;      // its pre-order index
    };
    AncestorStack<Ancestor> open;  // ancestors of the current node with children
    const std::uint32_t count = size();
    bool hits_are_leaves = true;
    bool has_waits = false;
    std::int64_t roots_ns = 0;
    // The arrays' addresses in locals, not read again after every push onto `open`.
    std::uint32_t* const post = post_.data();
    std::uint32_t* const body_places = body_.data();
    std::uint32_t* const depths = depth_.data();
    std::uint32_t* const parents = parent_.data();
    // The innermost ancestor's index (`count` for none) and the depth, in locals that change
    // only with the stack: most nodes, leaf hits, change neither.
    std::uint32_t parent = count;
    std::uint32_t depth = 0;
    // The widest nodes, and the least extent that may still enter them, in a local: most nodes
    // are turned away on it alone.
    TopShapes widest{kWidestNodes};
    std::uint32_t widest_floor = widest.floor();
    thread.nodes.walk_backwards([&](std::uint32_t i, const NodeHead& head, const NodeBody* body) {
        if (open.leave_before(i)) {
            parent = open.empty() ? count : open.innermost().n;
            depth = open.size();
        }
        const auto place = [&](std::uint32_t n, std::uint32_t body_index) {
            post[n] = i;
            body_places[n] = body_index;
            depths[n] = depth;
            parents[n] = parent;
        };
        if (body == nullptr) {  // a plain leaf hit: its subtree is itself
            place(i + depth, NodeStore::kNoBody);
            return;
        }
        const std::uint32_t n = body->first + depth;
        place(n, static_cast<std::uint32_t>(body - bodies_));
        has_waits = has_waits || head.outcome == Outcome::blocked;
        const std::int64_t ns = head.outcome == Outcome::hit ? 0 : body->end - body->start;
        if (depth == 0) {  // as duration_ns(n)
            roots_ns += ns;
        }
        if (body->extent >= widest_floor) [[unlikely]] {
            widest.offer(ShapeRank{body->extent, ns, 0, n});
            widest_floor = widest.floor();
        }
        if (body->first < i) {  // a leaf is no one's ancestor: it would leave the stack next
            open.enter(Ancestor{body->first, n});
            parent = n;
            depth = open.size();
            hits_are_leaves = hits_are_leaves && head.outcome != Outcome::hit;
        }
    });
    hits_are_leaves_ = hits_are_leaves;
    has_waits_ = has_waits;
    roots_ns_ = roots_ns;
    widest_ = widest.ranked();
}

std::int64_t Preorder::run_duration_ns(std::uint32_t from, std::uint32_t to) const {
    std::int64_t total = 0;
    for (std::uint32_t n = from; n < to; n = end(n)) {
        total += duration_ns(n);
    }
    return total;
}

}  // namespace qprof::detail
