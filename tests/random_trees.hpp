// Random threads of query trees for the tests of what reads a trace (the HTML statistics, the
// pre-order): every outcome, hits with children when asked, keys on some nodes.
#pragma once

#include <cstdint>
#include <qprof/trace.hpp>
#include <random>
#include <string>

namespace qprof::test {

// A random thread of `roots` trees, in post-order as ThreadTrace keeps them: few providers,
// durations from a short list (so that the slowest runs tie), keys on some nodes, and hits with
// children only when `hits_adopt`.
inline void add_random_thread(qprof::Trace& trace, std::mt19937& rng, int roots, bool hits_adopt) {
    qprof::ThreadTrace& thread = trace.threads.emplace_back();
    thread.index = static_cast<std::uint32_t>(trace.threads.size() - 1);
    thread.name = "thread " + std::to_string(thread.index);
    const auto pick = [&](std::uint32_t below) {
        return std::uniform_int_distribution<std::uint32_t>{0, below - 1}(rng);
    };
    std::int64_t clock = 0;
    // Returns the new node's index.
    const auto add = [&](auto&& self, std::uint32_t depth) -> std::uint32_t {
        const auto first = static_cast<std::uint32_t>(thread.nodes.size());
        const std::int64_t start = clock;
        const std::uint32_t kind = pick(10);
        qprof::Node node;
        node.outcome = kind < 4   ? qprof::Outcome::hit
                       : kind < 6 ? qprof::Outcome::miss
                       : kind < 8 ? qprof::Outcome::blocked
                       : kind < 9 ? qprof::Outcome::load
                                  : qprof::Outcome::activity;
        const bool leaf = node.outcome == qprof::Outcome::hit && !hits_adopt;
        std::uint32_t children = leaf || depth > 5 ? 0 : pick(4);
        node.extent = children;
        for (; children > 0; --children) {
            self(self, depth + 1);
        }
        node.site = pick(static_cast<std::uint32_t>(trace.sites.size()));
        node.depth = depth;
        node.first = first;
        if (node.outcome != qprof::Outcome::hit) {
            constexpr std::int64_t kSteps[] = {0, 1'000, 1'000, 2'000, 5'000};
            clock += kSteps[pick(5)];
            node.start = start;
            node.end = clock;
        }
        thread.nodes.push_back(node);
        thread.keys.push_back(pick(4));  // 0: none, else 1..3
        return static_cast<std::uint32_t>(thread.nodes.size() - 1);
    };
    for (int root = 0; root < roots; ++root) {
        add(add, 0);
    }
}

inline qprof::Trace random_trace(std::uint32_t seed, bool hits_adopt) {
    std::mt19937 rng{seed};
    qprof::Trace trace;
    for (const char* name : {"a", "b", "c"}) {
        trace.providers.push_back(qprof::ProviderTotals{.provider = name});
    }
    for (std::uint32_t site = 0; site < 5; ++site) {
        trace.sites.push_back(qprof::SiteInfo{"", "f.cpp", site, site % 3});
    }
    trace.key_texts = {"k1", "k2", "k3"};
    for (int thread = 0; thread < 3; ++thread) {
        add_random_thread(trace, rng, 30, hits_adopt);
    }
    return trace;
}

}  // namespace qprof::test
