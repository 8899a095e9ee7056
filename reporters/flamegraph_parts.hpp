// The pieces of profile_queries.flamegraph.html that flamegraph_reporter.cpp puts together:
// the merged stack tree as the JSON payload the viewer draws, and the viewer itself
// (reporters/flamegraph/: CSS and scripts, embedded at build time by embed_viewer.py).
// The whole contract: docs/flamegraph-report.md.
#pragma once

#include <cstdint>
#include <ostream>
#include <qprof/trace.hpp>

#include "stack_tree.hpp"

namespace qprof::detail::flamegraph {

// What the header shows, counted from the stack tree built with hits as frames.
struct GraphTotals {
    std::uint64_t queries = 0;  // every query node: runs, hits, blocked waits and loads
    std::uint64_t hits = 0;
    std::uint64_t frames = 0;      // in the payload: the root and every frame but hits
    std::int64_t total_ns = 0;     // the full width: the threads' time added up
    std::int64_t total_bytes = 0;  // the same in allocated bytes (-Z profile-queries-memory)
    // The outermost waits' time: a wait inside another (of any provider) is in the outer
    // one's time, as the HTML report's busy time counts it.
    std::int64_t waiting_ns = 0;
};
GraphTotals graph_totals(const StackTree& tree);

// The frames as JSON (docs/flamegraph-report.md): an "all threads" root, then the stack
// tree's frames in its order without the hit frames, whose counts go to their parent. With
// memory recorded, each frame's allocated bytes too, for the switch that weighs by them.
void write_payload(std::ostream& out, const Trace& trace, const StackTree& tree,
                   const GraphTotals& totals);

void write_viewer_css(std::ostream& out);
void write_viewer_js(std::ostream& out);

}  // namespace qprof::detail::flamegraph
