// Turns what the collector (or the reader of a saved stream) gathered into the Trace that
// reporters read: times in nanoseconds from the session start, and per-provider totals. Live
// and off-line runs go through this one function, so their reports are byte for byte alike.
#pragma once

#include <cstdint>
#include <qprof/detail/site.hpp>
#include <qprof/trace.hpp>
#include <string>
#include <vector>

#include "totals_builder.hpp"
#include "tree_builder.hpp"

namespace qprof::detail {

struct Calibration {
    std::uint64_t start_tick = 0;
    std::uint64_t end_tick = 0;
    double ns_per_tick = 1.0;
};

struct TraceInputs {
    // By thread index: trees when some report needs the nodes; totals, with or without them.
    // With both, the totals are the builders' (summed while the records came), not summed again
    // from the nodes.
    std::vector<TreeBuilder> trees;
    std::vector<TotalsBuilder> totals;
    ProviderSlots slots;  // the providers `totals` counted
    std::vector<std::string> thread_names;
    std::vector<RegisteredSite> sites;  // by site id
    Calibration calibration;
    std::string clock;  // "tsc", "steady" or "manual"
    RunInfo run;  // the process; Trace::program and pid are its, wall_ns and events the trace's
    bool keys_recorded = false;
    EventSelection selection;  // what the run recorded (-Z profile-queries-events)
    std::vector<std::string> key_texts;
};

Trace complete_trace(TraceInputs&& inputs);
// For tests: from this many blocks of 64 nodes, a thread's nodes are completed in two halves,
// the second on a thread of its own (1,024 blocks unless a test sets another). Returns the
// number it replaces.
std::uint32_t set_completion_split_blocks(std::uint32_t blocks);

// Sets trace.colour_classes to the classes given by provider index (empty: none), each once
// and sorted, so that a class keeps its colour whatever order the providers ran in, and each
// provider's colour_class to its place there.
void number_colour_classes(const std::vector<std::string>& classes, Trace& trace);

// Trace::arguments' order: by activity index, then by total time, longest first, then by
// argument.
void sort_arguments(std::vector<ArgumentTotals>& arguments);

// Ticks from the session start to nanoseconds; durations the same way.
struct TickConverter {
    static constexpr double kLimit = 9.2e18;  // within int64, so that the conversion is defined

    std::int64_t start_tick;
    double ns_per_tick;

    // Rounded half away from zero (std::round), within ±9.2e18. Inline and without a call to
    // std::round: it runs twice for every timed node.
    std::int64_t duration(std::int64_t ticks) const {
        if (ns_per_tick == 1.0) {
            return ticks;
        }
        const double ns = static_cast<double>(ticks) * ns_per_tick;
        if (!(ns > -kLimit && ns < kLimit)) [[unlikely]] {
            return clamped(ns);
        }
        // The conversion truncates, exactly at this size, and the fraction it drops is exact.
        const auto whole = static_cast<std::int64_t>(ns);
        const double fraction = ns - static_cast<double>(whole);
        return whole + (fraction >= 0.5) - (fraction <= -0.5);
    }
    std::int64_t operator()(std::int64_t tick) const {
        return duration(static_cast<std::int64_t>(static_cast<std::uint64_t>(tick) -
                                                  static_cast<std::uint64_t>(start_tick)));
    }

  private:
    static std::int64_t clamped(double ns);
};

}  // namespace qprof::detail
