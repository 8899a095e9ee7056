// Several completed traces -- the runs of a merged stream, every compiler process of a build --
// as one: threads side by side (named after their run), providers summed by name.
#pragma once

#include <qprof/trace.hpp>
#include <string>
#include <vector>

namespace qprof::detail {

struct NamedTrace {
    Trace trace;
    std::string run_name;  // "toyc[1234]": put before each thread's name
};

// Wall time and events are the runs' sums; times inside each thread stay relative to the
// start of its own run.
Trace merge_traces(std::vector<NamedTrace>&& runs);

}  // namespace qprof::detail
