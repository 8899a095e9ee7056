// What `qprof summarize` says about the runs of a saved trace: their metadata under the
// provider table, and with --by-process one row per process.
//
//   write_run_lines(trace, out);       // program, command, directory, times, peak RSS
//   write_processes_text(trace, out);  // --by-process
//
// The table (--by-process), in order of start time: program, pid, arguments (after argv[0],
// shortened to kArgumentColumns columns with "…"), start offset ms from the earliest run,
// wall ms, events, peak RSS MiB; then a line with the number of processes and their span.
//
// The JSON (--json carries "runs", --by-process --json "processes"), one run a line:
//   {"program":S,"argv":[S,...],"pid":N,"parent_pid":N,"working_directory":S,"host":S,
//    "start_unix_ns":N,"end_unix_ns":N,"peak_rss_bytes":N,"start_offset_ns":N,"wall_ns":N,
//    "events":N}
// end_unix_ns and peak_rss_bytes are 0 for a run cut before its end, and everything but the
// program, pid and start time is empty for a stream written before qprof 1.1 (format 1.1).
#pragma once

#include <ostream>
#include <qprof/trace.hpp>
#include <string>

namespace qprof::cli {

inline constexpr std::size_t kArgumentColumns = 40;

// The lines under the provider table: the program and pid, and what the run recorded of its
// process (or, for several runs, how many there were).
void write_run_lines(const Trace& trace, std::ostream& out);
// `"runs":[...]`, for the summary's JSON.
std::string runs_json(const Trace& trace);

void write_processes_text(const Trace& trace, std::ostream& out);
void write_processes_json(const Trace& trace, std::ostream& out);

// A command line as one line of text: each argument a text_field, quoted as a shell would
// need it ('a b', ''), so that the arguments stay apart.
std::string command_text(const std::vector<std::string>& argv, std::size_t first = 0);
// "2026-11-24 02:00:19.123 UTC"
std::string utc_text(std::int64_t unix_ns);

}  // namespace qprof::cli
