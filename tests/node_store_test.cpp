// NodeStore against a plain std::vector<Node> holding the same nodes: every accessor, on random
// mixes of plain leaf hits and nodes with bodies at every density, around the blocks of 64 its
// bitmap and ranks are made of, and on the shapes only a damaged stream gives.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <qprof/node_store.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "random_nodes.hpp"
#include "tree_builder.hpp"

using qprof::Node;
using qprof::NodeBody;
using qprof::NodeHead;
using qprof::NodeStore;
using qprof::Outcome;

namespace {

using namespace qprof::test::nodes;

void check_walks(const NodeStore& store, const std::vector<Node>& expected) {
    const auto body_of = [&](std::size_t i) { return store.body_of(i); };
    std::size_t i = 0;
    for (auto it = store.begin(); it != store.end(); ++it, ++i) {
        INFO("forward, node " << i);
        REQUIRE(it.index() == i);
        REQUIRE(it.body() == body_of(i));
        REQUIRE(text(*it) == text(expected[i]));
    }
    CHECK(i == expected.size());
    for (auto it = store.end(); it != store.begin();) {
        --it;
        --i;
        INFO("backward, node " << i);
        REQUIRE(it.index() == i);
        REQUIRE(it.body() == body_of(i));
        REQUIRE(text(*it) == text(expected[i]));
    }
    CHECK(i == 0);
    std::uint32_t next = static_cast<std::uint32_t>(expected.size());
    store.walk_backwards([&](std::uint32_t index, const NodeHead& head, const NodeBody* body) {
        INFO("walked back to node " << index);
        REQUIRE(index == --next);
        REQUIRE((body != nullptr) == store.has_body(index));
        if (body != nullptr) {
            REQUIRE(body == &store.bodies()[store.body_of(index)]);
        }
        REQUIRE(text(NodeStore::node_of(index, head, body)) == text(expected[index]));
    });
    CHECK(next == 0);
    std::size_t counted = 0;
    for (const Node& node : store) {  // as readers write it
        REQUIRE(text(node) == text(expected[counted]));
        ++counted;
    }
    CHECK(counted == expected.size());
    CHECK(store.end() - store.begin() == static_cast<std::ptrdiff_t>(expected.size()));
}

// Jumps (+, -, []) land where a walk does: the rank and the counted bodies agree.
void check_jumps(const NodeStore& store, const std::vector<Node>& expected, std::uint64_t seed) {
    if (expected.empty()) {
        return;
    }
    std::mt19937_64 rng{seed};
    std::uniform_int_distribution<std::size_t> place{0, expected.size() - 1};
    for (int jump = 0; jump < 200; ++jump) {
        const std::size_t a = place(rng);
        const std::size_t b = place(rng);
        const auto ia = store.begin() + static_cast<std::ptrdiff_t>(a);
        INFO("from " << a << " to " << b);
        REQUIRE(ia.body() == store.body_of(a));
        REQUIRE(text(*ia) == text(expected[a]));
        const auto ib = ia + (static_cast<std::ptrdiff_t>(b) - static_cast<std::ptrdiff_t>(a));
        REQUIRE(ib.index() == b);
        REQUIRE(text(*ib) == text(expected[b]));
        CHECK(text(store.begin()[static_cast<std::ptrdiff_t>(b)]) == text(expected[b]));
        CHECK(text(*(store.end() - static_cast<std::ptrdiff_t>(expected.size() - b))) ==
              text(expected[b]));
        CHECK((ia < ib) == (a < b));
        CHECK(ib - ia == static_cast<std::ptrdiff_t>(b) - static_cast<std::ptrdiff_t>(a));
        auto step = ia;  // a step after a jump counts from the jump's rank
        if (a + 1 < expected.size()) {
            ++step;
            CHECK(text(*step) == text(expected[a + 1]));
            CHECK(step.body() == store.body_of(a + 1));
        }
    }
}

}  // namespace

TEST_CASE("node store: random mixes of hits and timed nodes read back as a vector of nodes") {
    // Sizes around the blocks of 64 (a rank off by one shows at a block's edge), densities
    // from no body to all bodies.
    const std::size_t sizes[] = {0, 1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 1000, 4099};
    const double hit_shares[] = {0.0, 0.1, 0.5, 0.9, 0.99, 1.0};
    std::uint64_t seed = 1;
    for (const std::size_t size : sizes) {
        for (const double hits : hit_shares) {
            INFO(size << " nodes, " << hits << " of them plain hits, seed " << seed);
            const std::vector<Node> expected = random_nodes(seed, size, hits);
            const NodeStore store = store_of(expected);
            check_same(store, expected);
            check_walks(store, expected);
            check_jumps(store, expected, seed);
            ++seed;
        }
    }
}

TEST_CASE("node store: one body alone at each place of a block") {
    // Plain hits everywhere but one node: the body's rank and bit at every position of the
    // first three blocks, the first of each block and the last included.
    for (std::size_t timed = 0; timed < 3 * 64; ++timed) {
        INFO("the body at " << timed);
        std::vector<Node> expected;
        for (std::size_t i = 0; i < 3 * 64; ++i) {
            Node node{.outcome = Outcome::hit, .first = static_cast<std::uint32_t>(i)};
            if (i == timed) {
                node = Node{.site = 3,
                            .outcome = Outcome::miss,
                            .first = node.first,
                            .start = 10,
                            .end = 20};
            }
            expected.push_back(node);
        }
        const NodeStore store = store_of(expected);
        REQUIRE(store.bodies().size() == 1);
        for (std::size_t i = 0; i < expected.size(); ++i) {
            REQUIRE(store.body_of(i) == (i == timed ? 0 : NodeStore::kNoBody));
            REQUIRE(text(store[i]) == text(expected[i]));
        }
        check_walks(store, expected);
    }
}

TEST_CASE("node store: the damaged shapes keep their body, nothing about them changes") {
    // A hit that adopts the two nodes before it (the tree builder's "hit adopts pending
    // nodes"), a hit whose subtree starts elsewhere, a hit with times, a timed leaf.
    const std::vector<Node> expected = {
        Node{.outcome = Outcome::hit, .first = 0},
        Node{.start = 1, .end = 2},
        Node{.outcome = Outcome::hit, .extent = 2, .first = 0},
        Node{.outcome = Outcome::hit, .first = 1},
        Node{.outcome = Outcome::hit, .first = 4, .start = 0, .end = 9},
        Node{.outcome = Outcome::hit, .first = 5},
        Node{.outcome = Outcome::activity, .first = 6},
    };
    const NodeStore store = store_of(expected);
    CHECK(store.bodies().size() == 5);
    CHECK_FALSE(store.has_body(0));
    CHECK(store.has_body(2));
    CHECK(store.has_body(3));
    CHECK(store.has_body(4));
    CHECK_FALSE(store.has_body(5));
    CHECK(store.has_body(6));  // no times, but not a hit: a timed node of zero length
    check_same(store, expected);
    check_walks(store, expected);
}

TEST_CASE("node store: the tree builder keeps a body for a hit that adopts nodes") {
    namespace detail = qprof::detail;
    // A scope at depth 1, then a hit at depth 0 (no scope ended there first: a damaged stream),
    // then a plain hit.
    const std::vector<std::uint64_t> words = {
        detail::record_head(detail::RecordKind::miss, 1, 2),
        100,
        200,
        detail::record_head(detail::RecordKind::hit, 0, 3),
        detail::record_head(detail::RecordKind::hit, 0, 4),
    };
    detail::TreeBuilder tree;
    detail::KeyTexts keys;
    tree.add_records(words.data(), words.data() + words.size(), keys);
    const NodeStore& nodes = tree.nodes();
    REQUIRE(nodes.size() == 3);
    CHECK(text(nodes[0]) == text(Node{.site = 2, .depth = 1, .start = 100, .end = 200}));
    CHECK(text(nodes[1]) == text(Node{.site = 3, .outcome = Outcome::hit, .extent = 1}));
    CHECK(text(nodes[2]) == text(Node{.site = 4, .outcome = Outcome::hit, .first = 2}));
    CHECK(nodes.bodies().size() == 2);
    CHECK_FALSE(nodes.has_body(2));
}

TEST_CASE("node store: the builders' appends read back as push_back(Node) does") {
    const std::vector<Node> expected = random_nodes(77, 300, 0.8);
    NodeStore store;
    store.reserve(10, 2);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const Node& n = expected[i];
        const NodeHead head{n.site, n.depth, n.unfinished, n.outcome};
        if (plain_leaf_hit(n, i)) {
            store.push_leaf_hit(head);
        } else {
            store.push_back(head, NodeBody{n.extent, n.first, n.start, n.end});
        }
    }
    check_same(store, expected);
    CHECK(store.capacity() >= expected.size());
}

TEST_CASE("node store: a node's every field survives, at the edges of its bit-fields") {
    const std::vector<Node> expected = {
        Node{.site = ~std::uint32_t{0},
             .depth = (1u << 23) - 1,
             .unfinished = true,
             .outcome = Outcome::activity,
             .extent = ~std::uint32_t{0},
             .first = 0,
             .start = INT64_MIN,
             .end = INT64_MAX},
        Node{.site = 1, .depth = 0, .unfinished = true, .outcome = Outcome::hit, .first = 1},
        Node{.outcome = Outcome::load, .first = 2, .start = -1, .end = 0},
    };
    check_same(store_of(expected), expected);
}

TEST_CASE("node store: copy, swap, clear, an initializer list") {
    const std::vector<Node> first = random_nodes(11, 130, 0.7);
    const std::vector<Node> second = random_nodes(12, 70, 0.2);
    NodeStore a = store_of(first);
    NodeStore b = store_of(second);
    const NodeStore copy = a;
    a.swap(b);
    check_same(a, second);
    check_same(b, first);
    check_same(copy, first);
    b.clear();
    check_same(b, {});
    for (const Node& node : second) {  // a cleared store fills from its first block again
        b.push_back(node);
    }
    check_same(b, second);
    const NodeStore listed = {first[0], first[1], first[2]};
    check_same(listed, {first[0], first[1], first[2]});
}

TEST_CASE("node store: arrays grown past 2 MiB keep every node, pushed, reserved, copied, moved") {
    // An array's growth copies its bytes from one block to the next (detail::LargeArray); past 2
    // MiB the blocks are aligned for huge pages (src/large_pages.cpp). 700,000 nodes grow their
    // heads from small blocks to large ones and on between large ones, and half of them have
    // bodies (8.4 MB).
    const std::vector<Node> expected = random_nodes(21, 700'000, 0.5);
    NodeStore pushed;    // grows as std::vector would
    NodeStore reserved;  // grows by reserves, as the tree builder's
    std::size_t room = 1'000;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        pushed.push_back(expected[i]);
        if (i == reserved.capacity()) {
            room *= 3;
            reserved.reserve(room, room / 2);
        }
        reserved.push_back(expected[i]);
    }
    CHECK(reserved.capacity() == room);
    // A node compared as its fields: a string per node (text()) made this test take seconds.
    const auto differing = [&](const NodeStore& store) {
        std::size_t wrong = store.size() == expected.size() ? 0 : 1;
        std::size_t i = 0;
        for (const Node& node : store) {
            const Node& want = expected.at(i++);
            wrong += node.site != want.site || node.depth != want.depth ||
                     node.unfinished != want.unfinished || node.outcome != want.outcome ||
                     node.extent != want.extent || node.first != want.first ||
                     node.start != want.start || node.end != want.end;
        }
        return wrong;
    };
    CHECK(differing(pushed) == 0);
    CHECK(differing(reserved) == 0);
    // Copies have blocks of their own: the original then changes alone. An assignment into a
    // smaller store takes a larger block; one from a smaller store reuses the block it has.
    NodeStore copy = pushed;
    NodeStore assigned = store_of(random_nodes(5, 300, 0.3));
    assigned = pushed;
    const std::vector<Node> few = random_nodes(6, 100, 0.3);
    NodeStore shrunk = pushed;
    shrunk = store_of(few);
    check_same(shrunk, few);
    pushed.clear();
    for (const Node& node : few) {
        pushed.push_back(node);
    }
    check_same(pushed, few);
    CHECK(differing(copy) == 0);
    CHECK(differing(assigned) == 0);
    const NodeStore moved = std::move(copy);
    CHECK(differing(moved) == 0);
    CHECK(text(moved.back()) == text(expected.back()));
}
