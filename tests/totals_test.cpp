// Per-provider totals computed one node at a time in post-order (src/totals.hpp), checked by
// hand on small trees and against today's tree-walking computation on random ones.
#include "totals.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <qprof/detail/recorder.hpp>
#include <random>
#include <string>
#include <vector>

#include "tree_builder.hpp"

namespace {

using qprof::Outcome;
using qprof::detail::TickTotals;
using qprof::detail::TotalsAccumulator;

// Provider slots.
constexpr std::uint32_t a = 0, b = 1, c = 2;

// A node as the recorder writes it, in post-order.
struct Record {
    std::uint32_t provider;
    std::uint32_t depth;
    Outcome outcome;
    std::int64_t start = 0;  // hits keep 0, 0
    std::int64_t end = 0;
};

Record miss(std::uint32_t provider, std::uint32_t depth, std::int64_t start, std::int64_t end) {
    return Record{provider, depth, Outcome::miss, start, end};
}

Record hit(std::uint32_t provider, std::uint32_t depth) {
    return Record{provider, depth, Outcome::hit};
}

void feed(TotalsAccumulator& accumulator, const std::vector<Record>& records) {
    for (const Record& r : records) {
        accumulator.add(r.provider, r.depth, r.outcome, r.start, r.end);
    }
}

std::vector<TickTotals> accumulate(const std::vector<Record>& records) {
    TotalsAccumulator accumulator;
    feed(accumulator, records);
    return accumulator.totals();
}

std::string text(const TickTotals& t) {
    return "count " + std::to_string(t.count) + " hits " + std::to_string(t.hits) + " misses " +
           std::to_string(t.misses) + " total " + std::to_string(t.total) + " self " +
           std::to_string(t.self) + " blocked " + std::to_string(t.blocked) + " load " +
           std::to_string(t.load);
}

// The totals of one slot as text; a slot never seen reads as zero.
std::string slot_text(const std::vector<TickTotals>& totals, std::uint32_t slot) {
    return text(slot < totals.size() ? totals[slot] : TickTotals{});
}

// The depth a slot-by-slot comparison goes to, past every provider the tests use.
constexpr std::uint32_t kSlots = 6;

}  // namespace

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

namespace {

// The reference: today's complete_thread (src/trace_completion.cpp), in ticks and with the
// provider slot as site. It walks the built tree parents first.
struct Reference {
    std::vector<TickTotals> totals;
    std::uint64_t reentered = 0;    // timed nodes inside a node of their own provider
    std::uint64_t depth_jumps = 0;  // nodes more than one level below their parent
    std::uint64_t adopting_hits = 0;
};

void add_reference_node(const qprof::Node& node, std::uint32_t parent_provider, Reference& ref,
                        const std::vector<std::uint32_t>& open_per_provider) {
    TickTotals& totals = ref.totals[node.site];
    ++totals.count;
    totals.hits += node.outcome == Outcome::hit;
    totals.misses += node.outcome == Outcome::miss;
    if (node.outcome == Outcome::hit) {
        return;
    }
    const std::int64_t duration = node.duration_ns();  // still ticks
    if (open_per_provider[node.site] == 0) {
        totals.total += duration;
    }
    ref.reentered += open_per_provider[node.site] != 0;
    totals.self += duration;
    if (parent_provider != ~0u) {
        ref.totals[parent_provider].self -= duration;
    }
    totals.blocked += node.outcome == Outcome::blocked ? duration : 0;
    totals.load += node.outcome == Outcome::load ? duration : 0;
}

Reference reference_totals(const qprof::NodeVector& nodes) {
    Reference ref;
    ref.totals.resize(kSlots);
    std::vector<std::uint32_t> open_per_provider(kSlots, 0);
    std::vector<std::uint32_t> enclosing;  // indices of the current node's ancestors
    for (auto i = static_cast<std::uint32_t>(nodes.size()); i-- > 0;) {
        while (!enclosing.empty() && nodes[enclosing.back()].first > i) {
            --open_per_provider[nodes[enclosing.back()].site];
            enclosing.pop_back();
        }
        const qprof::Node& node = nodes[i];
        const std::uint32_t parent_provider =
            enclosing.empty() ? ~0u : nodes[enclosing.back()].site;
        if (!enclosing.empty()) {
            const qprof::Node& up = nodes[enclosing.back()];
            ref.depth_jumps += node.depth > up.depth + 1;
            ref.adopting_hits += up.outcome == Outcome::hit;
        }
        add_reference_node(node, parent_provider, ref, open_per_provider);
        ++open_per_provider[node.site];
        enclosing.push_back(i);
    }
    return ref;
}

qprof::detail::RecordKind kind_of(Outcome outcome) {
    using qprof::detail::RecordKind;
    switch (outcome) {
        case Outcome::hit:
            return RecordKind::hit;
        case Outcome::blocked:
            return RecordKind::blocked;
        case Outcome::load:
            return RecordKind::load;
        case Outcome::activity:
            return RecordKind::activity;
        case Outcome::miss:
            break;
    }
    return RecordKind::miss;
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

constexpr std::uint32_t kProviders = 5;  // few, so that providers re-enter often

std::uint64_t below(std::mt19937_64& rng, std::uint64_t bound) { return rng() % bound; }

Outcome timed_outcome(std::mt19937_64& rng) {
    constexpr Outcome kTimed[] = {Outcome::miss, Outcome::miss, Outcome::activity, Outcome::blocked,
                                  Outcome::load};
    return kTimed[below(rng, std::size(kTimed))];
}

// A thread as the recorder writes it: scopes nest, hits are leaves. Sometimes the session
// began inside a few scopes, a scope's record is lost (its children go to its parent, two
// levels up) or scopes are still open at the end (never written).
std::vector<Record> recorder_stream(std::mt19937_64& rng, std::uint32_t max_depth,
                                    std::size_t events) {
    std::vector<Record> records;
    std::vector<Record> open;
    const auto base = static_cast<std::uint32_t>(below(rng, 4) == 0 ? below(rng, 4) : 0);
    std::int64_t clock = static_cast<std::int64_t>(below(rng, 1000));
    for (std::size_t event = 0; event < events; ++event) {
        clock += static_cast<std::int64_t>(below(rng, 5));
        const auto depth = base + static_cast<std::uint32_t>(open.size());
        const std::uint64_t choice = below(rng, 100);
        if (choice < 40 && open.size() < max_depth) {
            open.push_back(Record{static_cast<std::uint32_t>(below(rng, kProviders)), depth,
                                  timed_outcome(rng), clock});
        } else if (choice < 70 || open.empty()) {
            records.push_back(hit(static_cast<std::uint32_t>(below(rng, kProviders)), depth));
        } else {
            open.back().end = clock;
            if (below(rng, 20) != 0) {
                records.push_back(open.back());
            }
            open.pop_back();
        }
    }
    while (!open.empty() && below(rng, 4) != 0) {
        open.back().end = ++clock;
        records.push_back(open.back());
        open.pop_back();
    }
    return records;
}

// Records in any order of depths, as a damaged or hostile file could hold: hits adopt
// children, depths jump both ways, durations may be negative.
std::vector<Record> arbitrary_stream(std::mt19937_64& rng, std::size_t count) {
    std::vector<Record> records;
    for (std::size_t i = 0; i < count; ++i) {
        const auto provider = static_cast<std::uint32_t>(below(rng, kProviders));
        const auto depth = static_cast<std::uint32_t>(below(rng, 8));
        if (below(rng, 4) == 0) {
            records.push_back(hit(provider, depth));
        } else {
            const auto start = static_cast<std::int64_t>(below(rng, 200)) - 50;
            const auto end = start + static_cast<std::int64_t>(below(rng, 120)) - 20;
            records.push_back(Record{provider, depth, timed_outcome(rng), start, end});
        }
    }
    return records;
}

// Compares every field of every slot with the reference; returns the reference.
Reference check_against_reference(const std::vector<Record>& records) {
    Reference ref = reference_of(records);
    const auto totals = accumulate(records);
    REQUIRE(totals.size() <= kSlots);
    for (std::uint32_t slot = 0; slot < kSlots; ++slot) {
        INFO("slot " << slot << ", " << records.size() << " records");
        REQUIRE(slot_text(totals, slot) == text(ref.totals[slot]));
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
        seen.depth_jumps += ref.depth_jumps;
        seen.adopting_hits += ref.adopting_hits;
    }
    CHECK(seen.reentered > 10000);
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

using qprof::detail::ArgumentSums;

// An activity with argument `argument` (0: none) as ArgumentSums sees it, in post-order.
struct ArgumentRun {
    std::uint32_t provider;
    std::uint32_t depth;
    std::uint32_t argument;
    std::uint64_t duration;
};

// "runs/total/cpu" of each pair, the CPU time of each run 1/10 of its duration.
std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> argument_sums(
    const std::vector<ArgumentRun>& runs) {
    ArgumentSums sums;
    for (const ArgumentRun& run : runs) {
        sums.add(run.provider, run.depth, run.argument, run.duration);
        sums.add_cpu(run.duration / 10);
    }
    std::map<ArgumentSums::Pair, ArgumentSums::Sums> summed;
    sums.add_to(summed);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> text;
    for (const auto& [pair, sum] : summed) {
        text[{static_cast<std::uint32_t>(pair >> 32), static_cast<std::uint32_t>(pair)}] =
            std::to_string(sum.runs) + "/" + std::to_string(sum.total) + "/" +
            std::to_string(sum.cpu_ns);
    }
    return text;
}

using ArgumentText = std::map<std::pair<std::uint32_t, std::uint32_t>, std::string>;

}  // namespace

TEST_CASE("argument sums: a run inside a run of the same activity and argument counts once") {
    // a(1) [100] holding b [60] holding a(1) [40] holding a(1) [10]: a(1)'s time is 100.
    CHECK(argument_sums({{a, 3, 1, 10}, {a, 2, 1, 40}, {b, 1, 0, 60}, {a, 0, 1, 100}}) ==
          ArgumentText{{{a, 1}, "3/100/10"}});
    // Another argument, or another activity with the same argument, is not the same pass.
    CHECK(argument_sums({{a, 2, 1, 10}, {a, 1, 2, 40}, {b, 0, 1, 100}}) ==
          ArgumentText{{{a, 1}, "1/10/1"}, {{a, 2}, "1/40/4"}, {{b, 1}, "1/100/10"}});
    // a(1) inside a(2) inside a(1): a(1) counts the outer run only.
    CHECK(argument_sums({{a, 2, 1, 10}, {a, 1, 2, 40}, {a, 0, 1, 100}}) ==
          ArgumentText{{{a, 1}, "2/100/10"}, {{a, 2}, "1/40/4"}});
}

TEST_CASE("argument sums: runs side by side all count, wherever their subtrees end") {
    // c [50] holding a(1) [20]; then a(1) [30] beside c, not around it; then a(1) under d.
    CHECK(argument_sums({{a, 1, 1, 20},
                         {c, 0, 0, 50},
                         {a, 0, 1, 30},
                         {a, 3, 1, 5},
                         {b, 2, 0, 6},
                         {c, 1, 0, 7},
                         {3, 0, 0, 8}}) == ArgumentText{{{a, 1}, "3/55/5"}});
    // Siblings under one parent, the parent the same pass: its own time only.
    CHECK(argument_sums({{a, 1, 1, 20}, {a, 1, 1, 30}, {a, 0, 1, 60}}) ==
          ArgumentText{{{a, 1}, "3/60/6"}});
}
