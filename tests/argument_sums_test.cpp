// The sums per activity and argument (ArgumentSums, src/argument_sums.hpp): a run inside a run of
// the same pass counts once, runs side by side all count.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "totals.hpp"
#include "totals_records.hpp"

using namespace qprof::test::totals_records;

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
