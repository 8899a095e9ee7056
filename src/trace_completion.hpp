// Turns the collector's per-thread trees into the Trace that reporters read: times in
// nanoseconds from the session start, and per-provider totals.
#pragma once

#include <cstdint>
#include <qprof/detail/site.hpp>
#include <qprof/trace.hpp>
#include <string>
#include <vector>

#include "tree_builder.hpp"

namespace qprof::detail {

struct Calibration {
    std::uint64_t start_tick = 0;
    std::uint64_t end_tick = 0;
    double ns_per_tick = 1.0;
};

Trace complete_trace(std::vector<TreeBuilder>& builders, const std::vector<std::string>& names,
                     const std::vector<detail::SiteInfo>& sites, const Calibration& calibration);

}  // namespace qprof::detail
