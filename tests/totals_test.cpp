// Per-provider totals computed one node at a time in post-order (src/totals.hpp), checked by
// hand on small trees. The same against today's tree-walking computation on random trees is
// totals_reference_test.cpp; the sums per activity and argument are argument_sums_test.cpp.
#include "totals.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <qprof/detail/recorder.hpp>
#include <qprof/qprof.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"
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
    // b [min, max] at the deepest depth, adopted by a [max, min]: b's durations are 2^64 - 1,
    // summed modulo 2^64; a ends before it starts, twice, so takes no time (clamped_end), and
    // b's durations are then subtracted from a's self.
    const auto totals = accumulate({miss(b, kDeepest, kMin, kMax), miss(b, kDeepest, kMin, kMax),
                                    miss(a, 0, kMax, kMin), miss(a, 0xffffffff, 0, kMin)});
    CHECK(slot_text(totals, a) == "count 2 hits 0 misses 2 total 0 self 2 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 2 hits 0 misses 2 total -2 self -2 blocked 0 load 0");
}

// A clock can go back (a virtual machine's, when it migrates): a node whose end tick is before
// its start takes no time, never a negative one, and counts as a run. One rule for every path.
TEST_CASE("totals: an end before the start is no time, fed node by node") {
    // a [0, 10] > b [6, 4] (the clock went back 2 ticks inside b)
    const auto totals = accumulate({miss(b, 1, 6, 4), miss(a, 0, 0, 10)});
    CHECK(slot_text(totals, a) == "count 1 hits 0 misses 1 total 10 self 10 blocked 0 load 0");
    CHECK(slot_text(totals, b) == "count 1 hits 0 misses 1 total 0 self 0 blocked 0 load 0");
}

namespace {

// A manual clock that reads the ticks given, one per read, then goes on from the last.
std::vector<std::uint64_t> g_reads;
std::size_t g_next_read = 0;
std::uint64_t next_read() {
    if (g_next_read < g_reads.size()) {
        return g_reads[g_next_read++];
    }
    return g_reads.back() + 10 * (++g_next_read - g_reads.size());
}

// The provider totals of a session that records `outer > inner` with these clock reads (the
// session's start, outer's start, inner's start and end, outer's end, the session's end),
// whose reports need the nodes (the collector keeps the tree) or totals only (TotalsBuilder).
std::vector<qprof::ProviderTotals> totals_with_clock(std::vector<std::uint64_t> reads,
                                                     bool nodes_kept) {
    g_reads = std::move(reads);
    g_next_read = 0;
    qprof::test::ManualClock clock;
    qprof::detail::set_manual_clock(&next_read);
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters =
        nodes_kept ? std::vector<std::string>{} : std::vector<std::string>{"counts"};
    const qprof::test::TempDir dir;
    options.output_dir = dir.path().string();
    qprof::Session session{options};
    {
        PROFILE_QUERY(outer);
        { PROFILE_QUERY(inner); }
    }
    session.finish();
    REQUIRE(g_next_read >= g_reads.size());  // and the collector's thread reads it as it ends
    return session.trace().providers;
}

// By name, one line each.
std::string totals_text(std::vector<qprof::ProviderTotals> providers) {
    std::sort(providers.begin(), providers.end(),
              [](const auto& x, const auto& y) { return x.provider < y.provider; });
    std::string text;
    for (const qprof::ProviderTotals& p : providers) {
        text += p.provider + ": count " + std::to_string(p.count) + " total " +
                std::to_string(p.total_ns) + " self " + std::to_string(p.self_ns) + "\n";
    }
    return text;
}

}  // namespace

TEST_CASE("totals: an end before the start is no time, with or without the tree") {
    constexpr std::uint64_t kBelowZero = ~std::uint64_t{0} - 99;  // -100 as a signed tick
    const auto [reads, expected] = GENERATE_COPY(table<std::vector<std::uint64_t>, std::string>({
        // inner's end is 5 ticks before its start
        {{1000, 1010, 1020, 1015, 1040, 1050},
         "inner: count 1 total 0 self 0\nouter: count 1 total 30 self 30\n"},
        // the same across tick 0, where a signed and an unsigned comparison disagree
        {{kBelowZero, kBelowZero + 10, kBelowZero + 95, 3, kBelowZero + 140, kBelowZero + 150},
         "inner: count 1 total 8 self 8\nouter: count 1 total 130 self 122\n"},
    }));
    INFO("clock reads from " << static_cast<std::int64_t>(reads[0]));
    CHECK(totals_text(totals_with_clock(reads, true)) == expected);
    CHECK(totals_text(totals_with_clock(reads, false)) == expected);
}
