// qprof summarize --args: a row per activity and argument (PROFILE_ACTIVITY_ARG, the trace's
// ArgumentTotals), so that the runs of a pass over files, modules or units are told apart.
//
//   write_arguments_text(trace, out);
//
// The table: activity, argument, runs, total ms (summed over its runs, a run inside a run of
// the same activity and argument counted once), cpu ms (its thread CPU time), share (of the
// activity's total time); rows in Trace::arguments' order: by activity, in the trace's order,
// then by total time, largest first. The JSON, in write_summary_json's object:
//   "arguments":[{"activity":S,"argument":S,"runs":N,"total_ns":N,"cpu_ns":N}, ...]
#pragma once

#include <ostream>
#include <qprof/trace.hpp>
#include <string>

namespace qprof::cli {

// The table and a blank line; nothing when the trace has no arguments.
void write_arguments_text(const Trace& trace, std::ostream& out);
// `,"arguments":[...]`
void append_arguments_json(const Trace& trace, std::string& json);

}  // namespace qprof::cli
