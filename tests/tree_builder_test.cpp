// The tree builder's children against the rule they follow, applied one node at a time: a node
// ending at depth d adopts every pending node deeper than d, and its subtree starts where the
// earliest of them starts. The builder keeps pending nodes in groups of siblings; the reference
// here keeps them one by one, on streams as the recorder writes them and on damaged ones.
#include "tree_builder.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "random_records.hpp"

using namespace qprof::test::totals_records;

namespace {

struct Expected {
    std::uint32_t first;
    std::uint32_t extent;
};

// What each node's subtree start and child count must be, from a stack of single pending nodes.
std::vector<Expected> one_by_one(const std::vector<Record>& records) {
    struct Pending {
        std::uint32_t first;
        std::uint32_t depth;
    };
    std::vector<Pending> pending;
    std::vector<Expected> expected;
    for (const Record& r : records) {
        Expected node{static_cast<std::uint32_t>(expected.size()), 0};
        while (!pending.empty() && pending.back().depth > r.depth) {
            node.first = pending.back().first;
            ++node.extent;
            pending.pop_back();
        }
        pending.push_back(Pending{node.first, r.depth});
        expected.push_back(node);
    }
    return expected;
}

void check_stream(std::mt19937_64& rng, const std::vector<Record>& records) {
    const std::vector<Expected> expected = one_by_one(records);
    qprof::detail::TreeBuilder tree;
    NoKeys keys;
    read_in_chunks(rng, record_words(records),
                   [&](const std::uint64_t* begin, const std::uint64_t* end) {
                       return tree.add_records(begin, end, keys);
                   });
    REQUIRE(tree.nodes().size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("node " << i << " at depth " << records[i].depth);
        const qprof::Node node = tree.nodes()[i];
        REQUIRE(node.first == expected[i].first);
        REQUIRE(node.extent == expected[i].extent);
        REQUIRE(node.depth == records[i].depth);
    }
}

}  // namespace

TEST_CASE("tree builder: children as a one-by-one pending stack finds them, well-formed streams") {
    std::mt19937_64 rng{20261130};
    std::uint64_t with_children = 0;
    std::uint64_t many_children = 0;
    for (int stream = 0; stream < 500; ++stream) {
        INFO("stream " << stream);
        const std::vector<Record> records =
            recorder_stream(rng, static_cast<std::uint32_t>(1 + below(rng, 12)), below(rng, 400));
        check_stream(rng, records);
        for (const Expected& e : one_by_one(records)) {
            with_children += e.extent > 0;
            many_children += e.extent > 3;
        }
    }
    CHECK(with_children > 1000);  // the streams exercise adoption, one child and many
    CHECK(many_children > 100);
}

TEST_CASE("tree builder: children as a one-by-one pending stack finds them, damaged streams") {
    // Depths jump both ways and hits adopt: several groups of different depths are adopted at
    // once, and a node may be deeper than the one after it by more than one level.
    std::mt19937_64 rng{11302026};
    std::uint64_t deep_jumps = 0;
    for (int stream = 0; stream < 500; ++stream) {
        INFO("stream " << stream);
        const std::vector<Record> records = arbitrary_stream(rng, below(rng, 200));
        check_stream(rng, records);
        for (std::size_t i = 1; i < records.size(); ++i) {
            deep_jumps += records[i - 1].depth > records[i].depth + 1;
        }
    }
    CHECK(deep_jumps > 1000);
}

TEST_CASE("tree builder: a chain deeper than the groups' first room, then siblings at the top") {
    // 100 nested scopes written innermost first, then 100 roots: the pending groups grow past
    // any first capacity, one a level, then a single group holds every root.
    std::vector<Record> records;
    for (std::uint32_t depth = 100; depth-- > 0;) {
        records.push_back(miss(depth % kProviders, depth, 0, 1));
    }
    for (std::uint32_t root = 0; root < 100; ++root) {
        records.push_back(hit(root % kProviders, 0));
    }
    std::mt19937_64 rng{7};
    check_stream(rng, records);
    const std::vector<Expected> expected = one_by_one(records);
    CHECK(expected[99].first == 0);  // the outermost scope holds the whole chain
    CHECK(expected[99].extent == 1);
}
