// A thread's nodes in pre-order (reporters/preorder.hpp): what its walk finds beside the order,
// its waits, its roots' time and the nodes of the page's lists of shapes.
#include "preorder.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "html_parts.hpp"
#include "random_trees.hpp"

using qprof::detail::Preorder;
using qprof::test::random_trace;

TEST_CASE("a thread's waits and its roots' time are found as its pre-order is made") {
    for (const bool hits_adopt : {false, true}) {
        for (std::uint32_t seed = 1; seed <= 20; ++seed) {
            qprof::Trace trace = random_trace(seed, hits_adopt);
            // The first thread's waits made runs: a thread that waits for nothing.
            for (qprof::NodeHead& head : trace.threads[0].nodes.heads()) {
                if (head.outcome == qprof::Outcome::blocked) {
                    head.outcome = qprof::Outcome::miss;
                }
            }
            INFO("seed " << seed << (hits_adopt ? ", hits with children" : ""));
            for (const qprof::ThreadTrace& thread : trace.threads) {
                const Preorder order{thread};
                for (std::uint32_t n = 0; n < order.size(); n = order.end(n)) {
                    CHECK(order.parent(n) == order.size());
                }
                bool waits = false;
                for (std::uint32_t n = 0; n < order.size(); ++n) {
                    waits = waits || order.outcome(n) == qprof::Outcome::blocked;
                }
                CHECK(order.roots_duration_ns() == order.run_duration_ns(0, order.size()));
                CHECK(order.has_waits() == waits);
                CHECK(order.has_waits() == (thread.index != 0));
                const qprof::detail::html::Work work{order};
                CHECK(work.of_thread() == work.of_run(0, order.size()));
            }
        }
    }
}

namespace {

// The `count` nodes of `order` that `measure` gives a measure above 0, ranked by it, then by
// duration, then in pre-order: every node taken in pre-order, sorted stably. (As the page's
// lists ranked nodes before the pre-order found the widest.)
template <typename Measure>
std::vector<std::uint32_t> best_in_preorder(const Preorder& order, std::size_t count,
                                            Measure measure) {
    struct Candidate {
        std::uint32_t measure;
        std::int64_t ns;
        std::uint32_t n;
    };
    std::vector<Candidate> candidates;
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        if (const std::uint32_t m = measure(n); m > 0) {
            candidates.push_back(Candidate{m, order.duration_ns(n), n});
        }
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
        return a.measure != b.measure ? a.measure > b.measure : a.ns > b.ns;
    });
    std::vector<std::uint32_t> best;
    for (std::size_t i = 0; i < candidates.size() && i < count; ++i) {
        best.push_back(candidates[i].n);
    }
    return best;
}

std::vector<std::uint32_t> nodes_of(const std::vector<qprof::detail::ShapeRank>& ranked) {
    std::vector<std::uint32_t> nodes(ranked.size());
    std::transform(ranked.begin(), ranked.end(), nodes.begin(),
                   [](const qprof::detail::ShapeRank& rank) { return rank.n; });
    return nodes;
}

}  // namespace

TEST_CASE("the widest nodes are found as the pre-order is made") {
    std::size_t full_lists = 0;  // lists of ten: kept nodes ranked among more candidates
    for (const bool hits_adopt : {false, true}) {
        for (std::uint32_t seed = 1; seed <= 40; ++seed) {
            INFO("seed " << seed << (hits_adopt ? ", hits with children" : ""));
            const qprof::Trace trace = random_trace(seed, hits_adopt);
            for (const qprof::ThreadTrace& thread : trace.threads) {
                const Preorder order{thread};
                const auto widest =
                    best_in_preorder(order, Preorder::kWidestNodes,
                                     [&](std::uint32_t n) { return order.extent(n); });
                CHECK(nodes_of(order.widest()) == widest);
                full_lists += widest.size() == Preorder::kWidestNodes;
            }
        }
    }
    CHECK(full_lists > 40);
}
