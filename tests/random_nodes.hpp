// Random nodes for the node store's tests: plain leaf hits and timed nodes at any density, now
// and then a shape only a damaged stream gives, and a check of a store against a plain vector
// of the same nodes.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <qprof/node_store.hpp>
#include <random>
#include <string>
#include <vector>

namespace qprof::test::nodes {

using qprof::Node;
using qprof::NodeBody;
using qprof::NodeHead;
using qprof::NodeStore;
using qprof::Outcome;

inline std::string text(const Node& n) {
    return "site " + std::to_string(n.site) + " depth " + std::to_string(n.depth) + " outcome " +
           std::to_string(static_cast<int>(n.outcome)) + " unfinished " +
           std::to_string(n.unfinished) + " extent " + std::to_string(n.extent) + " first " +
           std::to_string(n.first) + " start " + std::to_string(n.start) + " end " +
           std::to_string(n.end);
}

inline bool plain_leaf_hit(const Node& n, std::size_t index) {
    return n.outcome == Outcome::hit && n.extent == 0 && n.first == index && n.start == 0 &&
           n.end == 0;
}

// A node for place `index`: a plain leaf hit with probability `hits`, otherwise a timed node,
// or now and then a hit a damaged stream could give (with children, or with times).
inline Node random_node(std::mt19937_64& rng, std::size_t index, double hits) {
    std::uniform_real_distribution<double> u{0.0, 1.0};
    std::uniform_int_distribution<std::uint32_t> any{0, ~std::uint32_t{0}};
    Node node;
    node.site = any(rng) % 1000;
    node.depth = any(rng) & ((1u << 23) - 1);
    node.unfinished = any(rng) % 7 == 0;
    const auto here = static_cast<std::uint32_t>(index);
    if (u(rng) < hits) {
        node.outcome = Outcome::hit;
        node.first = here;
        return node;
    }
    const double kind = u(rng);
    if (kind < 0.1) {  // a hit that adopted the nodes before it
        node.outcome = Outcome::hit;
        node.first = here == 0 ? 0 : any(rng) % here;
        node.extent = here - node.first;
        return node;
    }
    if (kind < 0.15) {  // a hit with times, made by hand
        node.outcome = Outcome::hit;
        node.first = here;
        node.start = any(rng) % 2 == 0 ? 0 : 5;
        node.end = 7;
        return node;
    }
    constexpr Outcome kTimed[] = {Outcome::miss, Outcome::blocked, Outcome::load,
                                  Outcome::activity};
    node.outcome = kTimed[any(rng) % 4];
    node.first = here == 0 ? 0 : any(rng) % (here + 1);
    node.extent = any(rng) % 9;
    node.start = static_cast<std::int64_t>(any(rng)) - (std::int64_t{1} << 31);
    node.end = node.start + any(rng) % 100'000;
    return node;
}

inline std::vector<Node> random_nodes(std::uint64_t seed, std::size_t count, double hits) {
    std::mt19937_64 rng{seed};
    std::vector<Node> nodes;
    for (std::size_t i = 0; i < count; ++i) {
        nodes.push_back(random_node(rng, i, hits));
    }
    return nodes;
}

inline NodeStore store_of(const std::vector<Node>& nodes) {
    NodeStore store;
    for (const Node& node : nodes) {
        store.push_back(node);
    }
    return store;
}

// Every accessor of `store` against `expected`.
inline void check_same(const NodeStore& store, const std::vector<Node>& expected) {
    REQUIRE(store.size() == expected.size());
    CHECK(store.empty() == expected.empty());
    std::vector<std::uint32_t> body_at(expected.size(), NodeStore::kNoBody);
    std::uint32_t bodies = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (!plain_leaf_hit(expected[i], i)) {
            body_at[i] = bodies++;
        }
    }
    REQUIRE(store.bodies().size() == bodies);
    REQUIRE(store.heads().size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("node " << i << " of " << expected.size());
        REQUIRE(text(store[i]) == text(expected[i]));
        CHECK(text(store.at(i)) == text(expected[i]));
        CHECK(store.has_body(i) == (body_at[i] != NodeStore::kNoBody));
        REQUIRE(store.body_of(i) == body_at[i]);
        CHECK(text(store.assemble(i, body_at[i])) == text(expected[i]));
        const NodeHead head = store.heads()[i];
        CHECK(head.site == expected[i].site);
        CHECK(head.depth == expected[i].depth);
        CHECK(head.unfinished == expected[i].unfinished);
        CHECK(head.outcome == expected[i].outcome);
        if (body_at[i] != NodeStore::kNoBody) {
            const NodeBody& body = store.bodies()[body_at[i]];
            CHECK(body.extent == expected[i].extent);
            CHECK(body.first == expected[i].first);
            CHECK(body.start == expected[i].start);
            CHECK(body.end == expected[i].end);
        }
    }
    CHECK_THROWS_AS(store.at(expected.size()), std::out_of_range);
    if (!expected.empty()) {
        CHECK(text(store.front()) == text(expected.front()));
        CHECK(text(store.back()) == text(expected.back()));
    }
    CHECK(store.bytes_used() ==
          8 * expected.size() + 24 * bodies + 12 * ((expected.size() + 63) / 64));
}

// The iterators: forward and backward step by step, each step's node, index and body.

}  // namespace qprof::test::nodes
