// What a run records about its process (RunInfo in the Trace): the command line, the ids, the
// directory, the host, the start and end times and the peak resident memory.
//
//   RunInfo run = this_process_run(argv);   // at session start
//   ...
//   finish_run(run);                        // at session end: end time and peak RSS
#pragma once

#include <cstdint>
#include <qprof/trace.hpp>
#include <string>
#include <vector>

namespace qprof::detail {

// Nanoseconds since 1970-01-01 UTC, from the system clock.
std::int64_t unix_now_ns();

// This process as it is now. `argv` is the command line the program passed to its Session;
// when empty, it is read from /proc/self/cmdline (empty where there is none).
RunInfo this_process_run(std::vector<std::string> argv);

// The end time and the peak resident set size (getrusage's ru_maxrss), taken now.
void finish_run(RunInfo& run);

// /proc/self/cmdline (arguments separated by NUL bytes) as a list of arguments.
std::vector<std::string> split_cmdline(std::string_view bytes);

}  // namespace qprof::detail
