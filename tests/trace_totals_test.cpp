// The two ways complete_trace sums a trace's totals must agree: from the nodes at the end (a
// stream read back), or from the totals builders the collector fed while the run went on (a
// session that keeps its nodes), whose totals by provider slot it maps to provider indexes.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "random_nodes.hpp"
#include "random_records.hpp"
#include "totals_builder.hpp"
#include "trace_completion.hpp"
#include "tree_builder.hpp"

using namespace qprof::test::totals_records;

namespace {

// Two sites for each provider, so that a provider's totals gather several sites: site s runs
// provider s % kProviders. Providers are numbered against the sites' order (the last first),
// so that a slot and a provider index differ.
std::vector<qprof::detail::RegisteredSite> two_sites_a_provider() {
    std::vector<qprof::detail::RegisteredSite> sites;
    for (std::uint32_t site = 0; site < 2 * kProviders; ++site) {
        sites.push_back({"provider" + std::to_string(kProviders - 1 - site % kProviders),
                         "file.cpp", site, qprof::detail::SiteKind::query, ""});
    }
    return sites;
}

qprof::Trace complete(const std::vector<std::uint64_t>& words,
                      const std::vector<qprof::detail::RegisteredSite>& sites,
                      const qprof::detail::ProviderSlots& slots, bool summed_while_recording) {
    qprof::detail::TraceInputs inputs;
    NoKeys keys;
    REQUIRE(inputs.trees.emplace_back().add_records(words.data(), words.data() + words.size(),
                                                    keys) == words.data() + words.size());
    if (summed_while_recording) {
        inputs.totals.emplace_back().add_records(words.data(), words.data() + words.size(), keys,
                                                 slots);
    }
    inputs.slots = slots;
    inputs.sites = sites;
    inputs.thread_names = {"main"};
    inputs.calibration = {.start_tick = 0, .end_tick = 1'000'000, .ns_per_tick = 2.5};
    inputs.clock = "manual";
    return qprof::detail::complete_trace(std::move(inputs));
}

// The test's stream number `stream`: every fourth damaged (1 to `damaged_most` arbitrary
// records), the others as the recorder writes them (fewer than `most` records), each record on
// one of its provider's two sites.
std::vector<Record> draw_stream(std::mt19937_64& rng, int stream, std::uint64_t most,
                                std::uint64_t damaged_most) {
    // Each draw in its own statement: the order of a call's arguments is the compiler's.
    const bool damaged = stream % 4 == 3;
    const std::uint64_t count = damaged ? 1 + below(rng, damaged_most) : below(rng, most);
    const auto max_depth = 1 + static_cast<std::uint32_t>(below(rng, 8));
    std::vector<Record> records =
        damaged ? arbitrary_stream(rng, count) : recorder_stream(rng, max_depth, count);
    for (Record& r : records) {
        r.provider += kProviders * static_cast<std::uint32_t>(below(rng, 2));  // its site
    }
    return records;
}

std::string totals_text(const qprof::ProviderTotals& p) {
    return p.provider + " count " + std::to_string(p.count) + " hits " + std::to_string(p.hits) +
           " misses " + std::to_string(p.misses) + " total " + std::to_string(p.total_ns) +
           " self " + std::to_string(p.self_ns) + " blocked " + std::to_string(p.blocked_ns) +
           " blocked self " + std::to_string(p.blocked_self_ns) + " load " +
           std::to_string(p.load_ns);
}

}  // namespace

TEST_CASE("trace totals: summed from the nodes or by the collector's builders, the same") {
    std::mt19937_64 rng{20261129};
    const std::vector<qprof::detail::RegisteredSite> sites = two_sites_a_provider();
    qprof::detail::ProviderSlots slots;
    slots.add_sites(sites);
    std::uint64_t compared = 0;
    for (int stream = 0; stream < 300; ++stream) {
        INFO("stream " << stream);
        const std::vector<Record> records = draw_stream(rng, stream, 300, 60);
        const std::vector<std::uint64_t> words = record_words(records);
        const qprof::Trace from_nodes = complete(words, sites, slots, false);
        const qprof::Trace from_builders = complete(words, sites, slots, true);
        CHECK(from_builders.events == records.size());
        CHECK(from_builders.events == from_nodes.events);
        REQUIRE(from_builders.providers.size() == from_nodes.providers.size());
        for (std::size_t p = 0; p < from_nodes.providers.size(); ++p) {
            INFO("provider " << p);
            CHECK(totals_text(from_builders.providers[p]) == totals_text(from_nodes.providers[p]));
            compared += from_nodes.providers[p].count > 0;
        }
        REQUIRE(from_builders.threads.size() == from_nodes.threads.size());
        if (records.empty()) {
            continue;  // no thread
        }
        REQUIRE(from_builders.threads.size() == 1);
        CHECK(from_builders.threads[0].nodes.size() == from_nodes.threads[0].nodes.size());
        CHECK(from_builders.threads[0].nodes.bytes_used() ==
              from_nodes.threads[0].nodes.bytes_used());
    }
    CHECK(compared > 300 * 2);  // the streams reached most providers, not only empty totals
}

namespace {

// Every field of every node of the trace's threads, one line a node.
std::string nodes_text(const qprof::Trace& trace) {
    std::string text;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        for (const qprof::Node node : thread.nodes) {
            text += qprof::test::nodes::text(node) + "\n";
        }
    }
    return text;
}

// The split's threshold for the test's scope, then the one before again.
class SplitBlocks {
  public:
    explicit SplitBlocks(std::uint32_t blocks)
        : before_(qprof::detail::set_completion_split_blocks(blocks)) {}
    ~SplitBlocks() { qprof::detail::set_completion_split_blocks(before_); }
    SplitBlocks(const SplitBlocks&) = delete;
    SplitBlocks& operator=(const SplitBlocks&) = delete;

  private:
    std::uint32_t before_;
};

}  // namespace

TEST_CASE("trace completion: a thread's nodes completed in two halves, as in one pass") {
    std::mt19937_64 rng{20261130};
    const std::vector<qprof::detail::RegisteredSite> sites = two_sites_a_provider();
    qprof::detail::ProviderSlots slots;
    slots.add_sites(sites);
    std::uint64_t split_nodes = 0;
    for (int stream = 0; stream < 60; ++stream) {
        INFO("stream " << stream);
        // Up to 47 blocks of 64: halves that meet anywhere in a block's word, or none.
        const std::vector<Record> records = draw_stream(rng, stream, 2600, 3000);
        const std::vector<std::uint64_t> words = record_words(records);
        std::string whole;
        {
            const SplitBlocks never{~std::uint32_t{0}};
            whole = nodes_text(complete(words, sites, slots, true));
        }
        const SplitBlocks always{1};
        const qprof::Trace halves = complete(words, sites, slots, true);
        CHECK(nodes_text(halves) == whole);
        split_nodes += halves.threads.empty() ? 0 : halves.threads[0].nodes.size();
    }
    CHECK(split_nodes > 60 * 500);  // most streams were blocks long
}
