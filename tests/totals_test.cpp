// Per-provider totals computed one node at a time in post-order (src/totals.hpp), checked by
// hand on small trees. The same against today's tree-walking computation on random trees is
// totals_reference_test.cpp; the sums per activity and argument are argument_sums_test.cpp.
#include "totals.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <qprof/detail/recorder.hpp>
#include <vector>

#include "totals_records.hpp"

using qprof::Outcome;
using qprof::detail::TickTotals;
using qprof::detail::TotalsAccumulator;
using namespace qprof::test::totals_records;

TEST_CASE("totals: nested providers each get their own total and self time") {
    // a [0, 10] > b [2, 5] > c [3, 4]
    const auto totals = accumulate({miss(c, 2, 3, 4), miss(b, 1, 2, 5), miss(a, 0, 0, 10)});
    CHECK(slot_text(totals, a) == "count 1 hits 0 misses 1 total 10 self 7 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 1 hits 0 misses 1 total 3 self 2 blocked 0 load 0");
    CHECK(slot_text(totals, c) == "count 1 hits 0 misses 1 total 1 self 1 blocked 0 load 0");
}

TEST_CASE("totals: a provider re-entered inside another counts once in its total") {
    // a [0, 10] > b [1, 9] > a [2, 6]
    const auto totals = accumulate({miss(a, 2, 2, 6), miss(b, 1, 1, 9), miss(a, 0, 0, 10)});
    CHECK(slot_text(totals, a) == "count 2 hits 0 misses 2 total 10 self 6 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 1 hits 0 misses 1 total 8 self 4 blocked 0 load 0");
}

TEST_CASE("totals: direct recursion counts the outermost run once") {
    // a [0, 8] > a [1, 6] > a [2, 3], then a second recursion a [9, 12] > a [10, 11]
    const auto totals = accumulate({miss(a, 2, 2, 3), miss(a, 1, 1, 6), miss(a, 0, 0, 8),
                                    miss(a, 1, 10, 11), miss(a, 0, 9, 12)});
    CHECK(slot_text(totals, a) == "count 5 hits 0 misses 5 total 11 self 11 blocked 0 load 0");
}

TEST_CASE("totals: re-entrance is judged per subtree") {
    // b [0, 20] > (a [1, 5] > a [2, 3]), (c [6, 12] > a [7, 9]), a [13, 14]: every outer a
    // counts, the inner one does not.
    const auto totals = accumulate({miss(a, 2, 2, 3), miss(a, 1, 1, 5), miss(a, 2, 7, 9),
                                    miss(c, 1, 6, 12), miss(a, 1, 13, 14), miss(b, 0, 0, 20)});
    CHECK(slot_text(totals, a) == "count 4 hits 0 misses 4 total 7 self 7 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 1 hits 0 misses 1 total 20 self 9 blocked 0 load 0");
    CHECK(slot_text(totals, c) == "count 1 hits 0 misses 1 total 6 self 4 blocked 0 load 0");
}

TEST_CASE("totals: siblings are all children of the node that ends after them") {
    // a [0, 10] > b [1, 3], b [4, 7], c [8, 9]
    const auto totals =
        accumulate({miss(b, 1, 1, 3), miss(b, 1, 4, 7), miss(c, 1, 8, 9), miss(a, 0, 0, 10)});
    CHECK(slot_text(totals, a) == "count 1 hits 0 misses 1 total 10 self 4 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 2 hits 0 misses 2 total 5 self 5 blocked 0 load 0");
    CHECK(slot_text(totals, c) == "count 1 hits 0 misses 1 total 1 self 1 blocked 0 load 0");
}

TEST_CASE("totals: a node adopts every pending node deeper than itself, however deep") {
    SECTION("a root adopts nodes recorded three levels below it") {
        const auto totals = accumulate({miss(b, 3, 1, 4), miss(c, 3, 5, 6), miss(a, 0, 0, 10)});
        CHECK(slot_text(totals, a) == "count 1 hits 0 misses 1 total 10 self 6 blocked 0 load 0");
    }
    SECTION("pending nodes at several depths are all adopted") {
        // b (depth 2) is adopted by c (depth 1); then a (depth 0) adopts c and an a at depth 3.
        const auto totals =
            accumulate({miss(b, 2, 1, 2), miss(c, 1, 3, 5), miss(a, 3, 6, 7), miss(a, 0, 0, 10)});
        CHECK(slot_text(totals, a) == "count 2 hits 0 misses 2 total 10 self 8 blocked 0 load 0");
        CHECK(slot_text(totals, c) == "count 1 hits 0 misses 1 total 2 self 1 blocked 0 load 0");
    }
    SECTION("a re-entered provider in a deeper pending group still counts once") {
        // b > a (depths 1, 2) and an a at depth 4 pending at once, then one a adopts them.
        const auto totals =
            accumulate({miss(a, 2, 3, 4), miss(b, 1, 3, 6), miss(a, 4, 7, 8), miss(a, 0, 0, 10)});
        CHECK(slot_text(totals, a) == "count 3 hits 0 misses 3 total 10 self 8 blocked 0 load 0");
        CHECK(slot_text(totals, b) == "count 1 hits 0 misses 1 total 3 self 2 blocked 0 load 0");
    }
}

TEST_CASE("totals: blocked and load times are kept apart and are neither hits nor misses") {
    // a [0, 10] > b blocked [1, 4], c load [5, 7], then an activity c [11, 12]
    const auto totals =
        accumulate({Record{b, 1, Outcome::blocked, 1, 4}, Record{c, 1, Outcome::load, 5, 7},
                    miss(a, 0, 0, 10), Record{c, 0, Outcome::activity, 11, 12}});
    CHECK(slot_text(totals, a) == "count 1 hits 0 misses 1 total 10 self 5 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 1 hits 0 misses 0 total 3 self 3 blocked 3 load 0");
    CHECK(slot_text(totals, c) == "count 2 hits 0 misses 0 total 3 self 3 blocked 0 load 2");
}

TEST_CASE("totals: hits are counted and take no time") {
    // a [0, 10] > +a, +b, b [2, 4] > +a; a hit's ticks, if any, are ignored.
    const auto totals = accumulate({hit(a, 1), Record{b, 1, Outcome::hit, 100, 900}, hit(a, 2),
                                    miss(b, 1, 2, 4), miss(a, 0, 0, 10)});
    CHECK(slot_text(totals, a) == "count 3 hits 2 misses 1 total 10 self 8 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 2 hits 1 misses 1 total 2 self 2 blocked 0 load 0");
}

TEST_CASE("totals: several roots add up, and slots never used stay zero") {
    const auto totals =
        accumulate({miss(c, 0, 0, 4), miss(c, 1, 6, 7), miss(c, 0, 5, 9), miss(a, 2, 10, 11)});
    CHECK(slot_text(totals, a) == "count 1 hits 0 misses 1 total 1 self 1 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 0 hits 0 misses 0 total 0 self 0 blocked 0 load 0");
    CHECK(slot_text(totals, c) == "count 3 hits 0 misses 3 total 8 self 8 blocked 0 load 0");
}

TEST_CASE("totals: the totals of several threads are summed by slot") {
    TotalsAccumulator first;
    TotalsAccumulator second;
    feed(first, {miss(a, 1, 1, 3), miss(b, 0, 0, 5)});
    feed(second, {miss(c, 0, 0, 2), hit(a, 0)});
    std::vector<TickTotals> sum;
    first.add_to(sum);
    second.add_to(sum);
    REQUIRE(sum.size() == 3);
    CHECK(text(sum[a]) == "count 2 hits 1 misses 1 total 2 self 2 blocked 0 load 0");
    CHECK(text(sum[b]) == "count 1 hits 0 misses 1 total 5 self 3 blocked 0 load 0");
    CHECK(text(sum[c]) == "count 1 hits 0 misses 1 total 2 self 2 blocked 0 load 0");
}

TEST_CASE("totals: hostile ticks and depths wrap instead of overflowing") {
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::uint32_t kDeepest = qprof::detail::kDepthMask;
    // b [min, max] at the deepest depth, adopted by a [max, min]: durations -1 and 1, modulo
    // 2^64; b's duration is then subtracted from a's.
    const auto totals = accumulate({miss(b, kDeepest, kMin, kMax), miss(b, kDeepest, kMin, kMax),
                                    miss(a, 0, kMax, kMin), miss(a, 0xffffffff, 0, kMin)});
    CHECK(slot_text(totals, a) ==
          "count 2 hits 0 misses 2 total -9223372036854775807 self -9223372036854775805 "
          "blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 2 hits 0 misses 2 total -2 self -2 blocked 0 load 0");
}
