// Several completed traces -- the runs of a merged stream, every compiler process of a build --
// as one: runs on one timeline in order of start time, threads side by side (named after
// their run), providers summed by name.
#pragma once

#include <qprof/trace.hpp>
#include <string>
#include <vector>

namespace qprof::detail {

// "toyc[1234]", put before each thread's name; "run N[PID]" for a run without a program name
// (N counts from 1 in the order given).
std::string run_name(const RunInfo& run, std::size_t index);

// Each trace holds one run. Each run starts at its start time's offset from the earliest
// (RunInfo::start_offset_ns), and its nodes are moved there; the wall time spans from the
// earliest start to the latest end, events are the runs' sum. One trace is returned as it is.
Trace merge_traces(std::vector<Trace>&& runs);

}  // namespace qprof::detail
