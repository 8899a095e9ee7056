// A thread's nodes in pre-order (reporters/preorder.hpp): what its walk finds beside the order,
// its waits and its roots' time.
#include "preorder.hpp"

#include <catch2/catch.hpp>
#include <cstdint>

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
