// The totals of a completed trace (src/trace_completion.cpp): each provider's, summed in clock
// ticks -- by the collector's builders while the run went on, or from the nodes of a stream read
// back -- then converted once into Trace::providers and Trace::arguments.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "trace_completion.hpp"

namespace qprof::detail {

inline constexpr std::uint32_t kUnused = ~0u;

// Sums of an activity's runs by provider index (or slot) and argument (ArgumentSums::pair_of).
using ArgumentTicks = std::map<ArgumentSums::Pair, ArgumentSums::Sums>;

// What a recorded site id becomes: its index in trace.sites and its provider's.
struct NewSite {
    std::uint32_t site = kUnused;
    std::uint32_t provider = kUnused;
};

// A stream read back (the qprof tool) comes with no builders' totals: each provider's totals
// summed in ticks (by provider index) from a thread's nodes, before complete_tree places and
// converts them. A live session's collector summed them while the run went on.
void sum_tree_totals(const ThreadTrace& thread, const std::vector<NewSite>& new_sites,
                     std::vector<TickTotals>& ticks, ArgumentTicks& arguments);

// The totals the builders summed (by provider slot), by provider index into trace.providers;
// `arguments` by provider index too.
std::vector<TickTotals> builders_totals(const TraceInputs& inputs, const Trace& trace,
                                        ArgumentTicks& arguments);

// Each provider's totals converted once, from ticks summed over every thread.
void set_totals(const std::vector<TickTotals>& ticks, const TickConverter& to_ns, Trace& trace);

// Trace::arguments from the sums by provider index and key text id, in its order.
void set_arguments(const ArgumentTicks& arguments, const TickConverter& to_ns,
                   const std::vector<std::string>& key_texts, Trace& trace);

}  // namespace qprof::detail
