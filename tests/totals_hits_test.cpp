// The hits a TotalsAccumulator lets its caller count apart (src/totals.hpp): quiet_for_hits
// must say exactly when add_hit takes its in-line path and joins the pending group at its
// depth, so that the two conditions cannot drift apart; checked on random streams with waits
// and activities' arguments pending.
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "totals.hpp"
#include "totals_records.hpp"

using qprof::Outcome;
using qprof::detail::ArgumentSums;
using qprof::detail::TotalsAccumulator;

namespace {

constexpr std::uint32_t kProviders = 4;
constexpr std::uint32_t kMaxDepth = 6;

// A scope still open in the stream being made.
struct OpenScope {
    std::uint32_t provider;
    Outcome outcome;
    std::int64_t start;
    std::uint32_t argument;  // an activity's, 0 for none
};

// Everything an accumulator reports, as text.
std::string state_text(const TotalsAccumulator& totals) {
    std::string text = "pending " + std::to_string(totals.pending_entries());
    for (const qprof::detail::TickTotals& slot : totals.totals()) {
        text += "\n" + qprof::test::totals_records::text(slot);
    }
    std::map<ArgumentSums::Pair, ArgumentSums::Sums> arguments;
    totals.add_arguments_to(arguments);
    for (const auto& [pair, sums] : arguments) {
        text += "\nargument " + std::to_string(pair) + " runs " + std::to_string(sums.runs) +
                " total " + std::to_string(sums.total);
    }
    return text;
}

// What the streams exercised.
struct Seen {
    std::uint64_t quiet = 0;        // hits quiet_for_hits announced
    std::uint64_t new_group = 0;    // in line, but starting the group at their depth
    std::uint64_t out_of_line = 0;  // of a provider seen before
};

// A thread's stream, made as it is fed: scopes nest, activities have arguments, waits and hits
// come at every depth. Each hit of a provider seen before is checked.
void check_stream(std::mt19937_64& rng, Seen& seen) {
    TotalsAccumulator totals;
    std::vector<bool> known(kProviders, false);  // given to add() or add_hit()
    std::vector<OpenScope> open;
    std::int64_t clock = 0;
    for (int event = 0; event < 300; ++event) {
        clock += static_cast<std::int64_t>(rng() % 4);
        const auto depth = static_cast<std::uint32_t>(open.size());
        const auto provider = static_cast<std::uint32_t>(rng() % kProviders);
        const std::uint64_t choice = rng() % 100;
        if (choice < 35 && depth < kMaxDepth) {
            constexpr Outcome kTimed[] = {Outcome::miss, Outcome::activity, Outcome::blocked,
                                          Outcome::load};
            const Outcome outcome = kTimed[rng() % 4];
            const auto argument =
                static_cast<std::uint32_t>(outcome == Outcome::activity ? rng() % 3 : 0);
            open.push_back(OpenScope{provider, outcome, clock, argument});
        } else if (choice < 75 || open.empty()) {
            const bool quiet = totals.quiet_for_hits(depth);
            TotalsAccumulator apart = totals;  // the hit counted apart, as quiet allows
            apart.add_hits(provider, 1);
            const std::size_t pending = totals.pending_entries();
            const bool in_line = totals.add_hit(provider, depth);
            const bool joined = in_line && totals.pending_entries() == pending;
            if (known[provider]) {
                INFO("event " << event << ", hit of provider " << provider << " at depth " << depth
                              << ", in line " << in_line);
                REQUIRE(quiet == joined);
                seen.quiet += quiet;
                seen.new_group += in_line && !joined;
                seen.out_of_line += !in_line;
            }
            if (quiet) {  // what it promised: nothing changes but the hit's counts
                REQUIRE(state_text(totals) == state_text(apart));
            }
            known[provider] = true;
        } else {
            const OpenScope scope = open.back();
            open.pop_back();
            totals.add(scope.provider, depth - 1, scope.outcome, scope.start, clock,
                       scope.argument);
            known[scope.provider] = true;
        }
    }
}

}  // namespace

TEST_CASE("totals: quiet_for_hits says exactly when add_hit joins its depth's group in line") {
    std::mt19937_64 rng{20261125};
    Seen seen;
    for (int stream = 0; stream < 200; ++stream) {
        check_stream(rng, seen);
    }
    // Every case came up often: quiet hits, hits in line that start a group, hits out of line.
    CHECK(seen.quiet > 1000);
    CHECK(seen.new_group > 1000);
    CHECK(seen.out_of_line > 1000);
}
