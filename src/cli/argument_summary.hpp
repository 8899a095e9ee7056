// qprof summarize --args: a row per activity and argument (PROFILE_ACTIVITY_ARG), so that the
// runs of a pass over files, modules or units are told apart. It reads the nodes, which a
// plain summarize does not, so it is asked for.
//
//   const std::vector<ArgumentRow> rows = argument_rows(trace);   // a trace with its nodes
//   write_arguments_text(rows, out);
//
// The table: activity, argument, runs, total ms (summed over its runs), cpu ms (its thread CPU
// time), share (of the activity's total time); rows by activity, in the trace's order, then by
// total time, largest first. The JSON, in write_summary_json's object:
//   "arguments":[{"activity":S,"argument":S,"runs":N,"total_ns":N,"cpu_ns":N}, ...]
#pragma once

#include <cstdint>
#include <ostream>
#include <qprof/trace.hpp>
#include <string>
#include <vector>

namespace qprof::cli {

struct ArgumentRow {
    std::uint32_t activity = 0;  // into Trace::providers
    std::string argument;
    std::uint64_t runs = 0;
    std::int64_t total_ns = 0;
    std::int64_t cpu_ns = 0;  // of the runs that recorded it
};

std::vector<ArgumentRow> argument_rows(const Trace& trace);
// The table and a blank line; nothing when there are no rows.
void write_arguments_text(const Trace& trace, const std::vector<ArgumentRow>& rows,
                          std::ostream& out);
// `,"arguments":[...]`
void append_arguments_json(const Trace& trace, const std::vector<ArgumentRow>& rows,
                           std::string& json);

}  // namespace qprof::cli
