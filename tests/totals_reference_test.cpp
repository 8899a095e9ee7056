// Per-provider totals computed one node at a time in post-order (src/totals.hpp) against
// today's tree-walking computation, on random trees; and what they hold for pending nodes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <iterator>
#include <qprof/detail/recorder.hpp>
#include <random>
#include <string>
#include <vector>

#include "random_records.hpp"
#include "totals.hpp"
#include "totals_builder.hpp"
#include "totals_records.hpp"
#include "tree_builder.hpp"

using qprof::Outcome;
using qprof::detail::TickTotals;
using qprof::detail::TotalsAccumulator;
using namespace qprof::test::totals_records;

namespace {

// The reference: today's complete_thread (src/trace_completion.cpp), in ticks and with the
// provider slot as site. It walks the built tree parents first.
struct Reference {
    std::vector<TickTotals> totals;
    std::uint64_t reentered = 0;     // timed nodes inside a node of their own provider
    std::uint64_t nested_waits = 0;  // waits inside a wait of their own provider
    std::uint64_t depth_jumps = 0;   // nodes more than one level below their parent
    std::uint64_t adopting_hits = 0;
};

// `open_*`: per provider, its nodes and its waits among the node's ancestors.
void add_reference_node(const qprof::Node& node, const qprof::Node* parent, Reference& ref,
                        const std::vector<std::uint32_t>& open_per_provider,
                        const std::vector<std::uint32_t>& open_waits) {
    TickTotals& totals = ref.totals[node.site];
    ++totals.count;
    totals.hits += node.outcome == Outcome::hit;
    totals.misses += node.outcome == Outcome::miss;
    if (node.outcome == Outcome::hit) {
        return;
    }
    // Still ticks; an end before the start (as arbitrary streams hold) is no time.
    const std::int64_t duration = std::max<std::int64_t>(node.duration_ns(), 0);
    if (open_per_provider[node.site] == 0) {
        totals.total += duration;
    }
    ref.reentered += open_per_provider[node.site] != 0;
    totals.self += duration;
    if (parent != nullptr) {
        ref.totals[parent->site].self -= duration;
        if (parent->outcome == Outcome::blocked) {
            ref.totals[parent->site].blocked_self -= duration;
        }
    }
    if (node.outcome == Outcome::blocked) {
        totals.blocked += open_waits[node.site] == 0 ? duration : 0;
        ref.nested_waits += open_waits[node.site] != 0;
        totals.blocked_self += duration;
    }
    totals.load += node.outcome == Outcome::load ? duration : 0;
}

Reference reference_totals(const qprof::NodeVector& nodes) {
    Reference ref;
    ref.totals.resize(kSlots);
    std::vector<std::uint32_t> open_per_provider(kSlots, 0);
    std::vector<std::uint32_t> open_waits(kSlots, 0);
    std::vector<std::uint32_t> enclosing;  // indices of the current node's ancestors
    for (auto i = static_cast<std::uint32_t>(nodes.size()); i-- > 0;) {
        while (!enclosing.empty() && nodes[enclosing.back()].first > i) {
            --open_per_provider[nodes[enclosing.back()].site];
            open_waits[nodes[enclosing.back()].site] -=
                nodes[enclosing.back()].outcome == Outcome::blocked;
            enclosing.pop_back();
        }
        const qprof::Node& node = nodes[i];
        const qprof::Node enclosing_node =
            enclosing.empty() ? qprof::Node{} : nodes[enclosing.back()];
        const qprof::Node* parent = enclosing.empty() ? nullptr : &enclosing_node;
        if (!enclosing.empty()) {
            const qprof::Node& up = nodes[enclosing.back()];
            ref.depth_jumps += node.depth > up.depth + 1;
            ref.adopting_hits += up.outcome == Outcome::hit;
        }
        add_reference_node(node, parent, ref, open_per_provider, open_waits);
        ++open_per_provider[node.site];
        open_waits[node.site] += node.outcome == Outcome::blocked;
        enclosing.push_back(i);
    }
    return ref;
}

// The tree the collector would build from the records, then the reference totals of it.
Reference reference_of(const std::vector<Record>& records) {
    qprof::detail::TreeBuilder builder;
    for (const Record& r : records) {
        builder.add(qprof::detail::record_head(kind_of(r.outcome), r.depth, r.provider),
                    static_cast<std::uint64_t>(r.start), static_cast<std::uint64_t>(r.end));
    }
    return reference_totals(builder.nodes());
}

// Compares every field of every slot with the reference; returns the reference.
Reference check_against_reference(const std::vector<Record>& records) {
    Reference ref = reference_of(records);
    const auto totals = accumulate(records);
    REQUIRE(totals.size() <= kSlots);
    for (std::uint32_t slot = 0; slot < kSlots; ++slot) {
        INFO("slot " << slot << ", " << records.size() << " records");
        REQUIRE(slot_text(totals, slot) == text(ref.totals[slot]));
        REQUIRE((slot < totals.size() ? totals[slot].blocked_self : 0) ==
                ref.totals[slot].blocked_self);
    }
    return ref;
}

}  // namespace

TEST_CASE("totals: random trees give the same totals as the tree walk") {
    std::mt19937_64 rng{20240611};
    Reference seen;  // what the corpus exercised
    for (int tree = 0; tree < 4000; ++tree) {
        INFO("tree " << tree);
        std::vector<Record> records;
        if (tree % 4 == 3) {
            records = arbitrary_stream(rng, 1 + below(rng, 60));
        } else {
            const auto max_depth = static_cast<std::uint32_t>(1 + below(rng, 8));
            records = recorder_stream(rng, max_depth, below(rng, 300));
        }
        const Reference ref = check_against_reference(records);
        seen.reentered += ref.reentered;
        seen.nested_waits += ref.nested_waits;
        seen.depth_jumps += ref.depth_jumps;
        seen.adopting_hits += ref.adopting_hits;
    }
    CHECK(seen.reentered > 10000);
    CHECK(seen.nested_waits > 500);
    CHECK(seen.depth_jumps > 1000);
    CHECK(seen.adopting_hits > 100);
}

TEST_CASE("totals: what is held for pending nodes is bounded by depth, not by node count") {
    TotalsAccumulator accumulator;
    std::size_t most = 0;
    auto add = [&](const Record& r) {
        accumulator.add(r.provider, r.depth, r.outcome, r.start, r.end);
        most = std::max(most, accumulator.pending_entries());
    };
    SECTION("many siblings each with a child of a provider seen before") {
        for (std::int64_t i = 0; i < 100'000; ++i) {
            add(miss(a, 2, 4 * i + 1, 4 * i + 2));
            add(miss(b, 1, 4 * i, 4 * i + 3));
        }
        add(miss(c, 0, -1, 400'000));
        CHECK(most <= 3 * (kProviders + 1));
    }
    SECTION("a long random run of bounded depth") {
        std::mt19937_64 rng{7};
        constexpr std::uint32_t kMaxDepth = 6;
        for (const Record& r : recorder_stream(rng, kMaxDepth, 200'000)) {
            add(r);
        }
        CHECK(most <= (kMaxDepth + 4) * (kProviders + 1));  // the session may begin 3 deep
    }
}

namespace {

std::string node_text(const qprof::Node& n) {
    return "site " + std::to_string(n.site) + " depth " + std::to_string(n.depth) + " outcome " +
           std::to_string(static_cast<int>(n.outcome)) + " unfinished " +
           std::to_string(n.unfinished) + " extent " + std::to_string(n.extent) + " first " +
           std::to_string(n.first) + " start " + std::to_string(n.start) + " end " +
           std::to_string(n.end);
}

}  // namespace

// The builders read records through parse_records, with paths of their own for the common
// cases (a hit that adopts nothing; hits counted by site while nothing but counts changes):
// what they build must be what a record-by-record feed builds, for damaged streams too.
TEST_CASE("totals: the builders' in-line paths build what the node-by-node feed builds") {
    std::mt19937_64 rng{20261125};
    std::vector<qprof::detail::RegisteredSite> sites;
    for (std::uint32_t provider = 0; provider < kProviders; ++provider) {
        sites.push_back({"provider" + std::to_string(provider), "file.cpp", provider,
                         qprof::detail::SiteKind::query, ""});
    }
    qprof::detail::ProviderSlots slots;
    slots.add_sites(sites);
    REQUIRE(slots.slot(kProviders - 1) == kProviders - 1);
    NoKeys keys;
    std::uint64_t quiet_hits = 0;  // hits right after a hit at the same depth
    for (int stream = 0; stream < 2000; ++stream) {
        INFO("stream " << stream);
        std::vector<Record> records;
        if (stream % 4 == 3) {
            records = arbitrary_stream(rng, 1 + below(rng, 60));
        } else {
            records = recorder_stream(rng, static_cast<std::uint32_t>(1 + below(rng, 8)),
                                      below(rng, 300));
        }
        for (std::size_t i = 1; i < records.size(); ++i) {
            quiet_hits += records[i].outcome == Outcome::hit &&
                          records[i - 1].outcome == Outcome::hit &&
                          records[i].depth == records[i - 1].depth;
        }
        const std::vector<std::uint64_t> words = record_words(records);

        qprof::detail::TreeBuilder by_node;
        for (const Record& r : records) {
            by_node.add(qprof::detail::record_head(kind_of(r.outcome), r.depth, r.provider),
                        static_cast<std::uint64_t>(r.start), static_cast<std::uint64_t>(r.end));
        }
        qprof::detail::TreeBuilder tree;
        read_in_chunks(rng, words, [&](const std::uint64_t* begin, const std::uint64_t* end) {
            return tree.add_records(begin, end, keys);
        });
        REQUIRE(tree.nodes().size() == by_node.nodes().size());
        for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
            INFO("node " << i);
            REQUIRE(node_text(tree.nodes()[i]) == node_text(by_node.nodes()[i]));
        }

        qprof::detail::TotalsBuilder totals;
        read_in_chunks(rng, words, [&](const std::uint64_t* begin, const std::uint64_t* end) {
            return totals.add_records(begin, end, keys, slots);
        });
        CHECK(totals.events() == records.size());
        // An end before the start is no time on both paths, by the accumulator's one rule.
        const std::vector<TickTotals> read = totals.totals().totals();
        const std::vector<TickTotals> fed = accumulate(records);
        for (std::uint32_t slot = 0; slot < kSlots; ++slot) {
            INFO("slot " << slot);
            REQUIRE(slot_text(read, slot) == slot_text(fed, slot));
        }
        for (std::uint32_t site = 0; site < kProviders; ++site) {
            const bool used = std::any_of(records.begin(), records.end(),
                                          [&](const Record& r) { return r.provider == site; });
            const auto& seen = totals.sites_seen();
            CHECK((site < seen.size() && seen[site] == qprof::detail::SiteSeen::yes) == used);
        }
    }
    CHECK(quiet_hits > 1000);
}
