// NodeStore's writers' walks: edit() over every node, edit_blocks() over a range of blocks of
// 64, as two threads completing one trace use it (src/trace_completion.cpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <qprof/node_store.hpp>
#include <vector>

#include "random_nodes.hpp"

using namespace qprof::test::nodes;

TEST_CASE("node store: edit hands each node's head and body in order, and keeps the changes") {
    std::vector<Node> expected = random_nodes(5, 700, 0.9);
    NodeStore store = store_of(expected);
    store_of({}).edit(
        [](std::uint32_t, NodeHead&, NodeBody*) { FAIL("an empty store has no node"); });
    std::uint32_t next = 0;
    store.edit([&](std::uint32_t index, NodeHead& head, NodeBody* body) {
        REQUIRE(index == next++);
        REQUIRE((body != nullptr) == !plain_leaf_hit(expected[index], index));
        REQUIRE(head.site == expected[index].site);
        head.site += 1;
        expected[index].site += 1;
        if (body != nullptr) {
            REQUIRE(body->start == expected[index].start);
            body->start -= 3;
            body->end += 4;
            expected[index].start -= 3;
            expected[index].end += 4;
        }
    });
    CHECK(next == expected.size());
    check_same(store, expected);
    for (NodeHead& head : store.heads()) {
        head.depth = 7;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
        expected[i].depth = 7;
    }
    check_same(store, expected);
}

TEST_CASE("node store: edit_blocks hands each node of its blocks alone, with its body") {
    for (const double hits : {0.0, 0.5, 0.9, 1.0}) {
        const std::vector<Node> nodes = random_nodes(11, 64 * 9 + 17, hits);
        NodeStore store = store_of(nodes);
        REQUIRE(store.blocks() == 10);
        INFO(hits << " of the nodes plain hits");
        // Every split into two parts, as two threads edit them; and blocks past the end.
        for (std::uint32_t split = 0; split <= store.blocks() + 1; ++split) {
            std::vector<int> visits(nodes.size(), 0);
            const auto visit = [&](std::uint32_t index, NodeHead& head, NodeBody* body) {
                REQUIRE(index < nodes.size());
                ++visits[index];
                REQUIRE(head.site == nodes[index].site);
                REQUIRE((body != nullptr) == !plain_leaf_hit(nodes[index], index));
                if (body != nullptr) {
                    REQUIRE(body->start == nodes[index].start);
                    REQUIRE(body->first == nodes[index].first);
                }
            };
            store.edit_blocks(split, store.blocks() + 3, visit);
            for (std::size_t i = 0; i < nodes.size(); ++i) {
                REQUIRE(visits[i] == (i / 64 >= split ? 1 : 0));
            }
            store.edit_blocks(0, split, visit);
            CHECK(std::all_of(visits.begin(), visits.end(), [](int n) { return n == 1; }));
        }
    }
    store_of({}).edit_blocks(
        0, 1, [](std::uint32_t, NodeHead&, NodeBody*) { FAIL("an empty store has no node"); });
}
