// A thread's nodes in pre-order, for reporters that walk the tree from the roots down.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <qprof/trace.hpp>
#include <utility>
#include <vector>

#include "shape_ranks.hpp"

namespace qprof::detail {

// One thread's nodes in pre-order: a parent before its children, children in call order, so
// that the subtree of node n is [n, end(n)) and a run of siblings is one contiguous range.
class Preorder {
  public:
    explicit Preorder(const ThreadTrace& thread);

    const ThreadTrace& thread() const { return *thread_; }
    std::uint32_t size() const { return static_cast<std::uint32_t>(post_.size()); }
    // Node n, without a rank: its body's place was saved when the order was made, and the
    // store's arrays are read from here (one load fewer than through the thread).
    Node node(std::uint32_t n) const {
        const std::uint32_t i = post_[n];
        if (body_[n] == NodeStore::kNoBody) {  // one branch: each side builds its node directly
            return NodeStore::node_of(i, heads_[i], nullptr);
        }
        return NodeStore::node_of(i, heads_[i], &bodies_[body_[n]]);
    }
    // The index of pre-order node n in ThreadTrace::nodes.
    std::uint32_t post_index(std::uint32_t n) const { return post_[n]; }
    // Ancestors in this trace (Node::depth also counts scopes open before recording began).
    std::uint32_t depth(std::uint32_t n) const { return depth_[n]; }
    // The parent of node n, or size() for a root.
    std::uint32_t parent(std::uint32_t n) const { return parent_[n]; }
    // The end of n's subtree. These four read the head or the body alone, and a plain leaf hit's
    // only its place: each is asked of every sibling in a run, tens of thousands at the top of a
    // scan, where a whole node read for one field cost several loads and branches more.
    std::uint32_t end(std::uint32_t n) const {
        const std::uint32_t body = body_[n];
        return body == NodeStore::kNoBody ? n + 1 : n + post_[n] - bodies_[body].first + 1;
    }
    Outcome outcome(std::uint32_t n) const { return heads_[post_[n]].outcome; }
    const NodeHead& head(std::uint32_t n) const { return heads_[post_[n]]; }
    // Node n's body, or null for a plain leaf hit (NodeStore keeps none for it).
    const NodeBody* body(std::uint32_t n) const {
        const std::uint32_t body = body_[n];
        return body == NodeStore::kNoBody ? nullptr : &bodies_[body];
    }
    // When a node with a body began (0 for a plain leaf hit, as in its Node).
    std::int64_t start(std::uint32_t n) const {
        const std::uint32_t body = body_[n];
        return body == NodeStore::kNoBody ? 0 : bodies_[body].start;
    }
    std::uint32_t extent(std::uint32_t n) const {
        const std::uint32_t body = body_[n];
        return body == NodeStore::kNoBody ? 0 : bodies_[body].extent;
    }
    // Hits take no time; everything else its inclusive duration.
    std::int64_t duration_ns(std::uint32_t n) const {
        const std::uint32_t body = body_[n];
        if (body == NodeStore::kNoBody || heads_[post_[n]].outcome == Outcome::hit) {
            return 0;
        }
        return bodies_[body].end - bodies_[body].start;
    }
    // Whether no hit has children (a hit adopts nodes only in a damaged stream).
    bool hits_are_leaves() const { return hits_are_leaves_; }
    // Whether some node is a wait (Outcome::blocked); most threads wait for nothing.
    bool has_waits() const { return has_waits_; }
    // The summed durations of the roots, found as the order is made: walked again root by
    // root, tens of thousands of them in a scan, it cost a cache miss or two each.
    std::int64_t roots_duration_ns() const { return roots_ns_; }
    // The summed durations of the top-level nodes of the sibling run [from, to).
    std::int64_t run_duration_ns(std::uint32_t from, std::uint32_t to) const;

    // The nodes with the most immediate children, ranked then by duration, found as the order
    // is made (the page lists them: html_shapes.cpp), where the extent is at hand: a walk of its
    // own read two arrays again. Their thread is 0: the order does not know its place.
    static constexpr std::size_t kWidestNodes = 10;
    const std::vector<ShapeRank>& widest() const { return widest_; }

  private:
    // Every element is written once by the constructor: none is zeroed first.
    template <typename T>
    struct Uninitialised : std::allocator<T> {
        template <typename U>
        struct rebind {
            using other = Uninitialised<U>;
        };
        Uninitialised() = default;
        template <typename U>
        Uninitialised(const Uninitialised<U>&) {}
        template <typename U>
        void construct(U* at) {
            ::new (static_cast<void*>(at)) U;
        }
        template <typename U, typename... Args>
        void construct(U* at, Args&&... args) {
            ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
        }
    };
    using Indexes = std::vector<std::uint32_t, Uninitialised<std::uint32_t>>;

    const ThreadTrace* thread_;
    const NodeHead* heads_;  // thread_->nodes' arrays
    const NodeBody* bodies_;
    Indexes post_;
    Indexes body_;  // of pre-order node n in ThreadTrace::nodes.bodies(), or NodeStore::kNoBody
    Indexes depth_;
    Indexes parent_;
    bool hits_are_leaves_ = true;
    bool has_waits_ = false;
    std::int64_t roots_ns_ = 0;
    std::vector<ShapeRank> widest_;  // best first
};

}  // namespace qprof::detail
