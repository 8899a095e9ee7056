// Writes the selected reports into the output directory and says where on stderr.
#pragma once

#include <filesystem>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <qprof/trace.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "report_files.hpp"

namespace qprof::detail {

// Why -Z profile-queries-folded=bytes has no stacks to weigh: said by the session at its start,
// and by the folded report of a trace without memory (qprof report of such a run).
inline constexpr std::string_view kFoldedBytesNeedMemory =
    "-Z profile-queries-folded=bytes weighs stacks by the bytes allocated in them, but this run "
    "does not record memory: add -Z profile-queries-memory (and include <qprof/alloc_hook.hpp> "
    "in one source file of the program)";

// The output directory, absolute: resolved once, before the program may change directory.
std::filesystem::path absolute_dir(const std::string& dir);

// Throws OutputError naming the directory and the reason when reports cannot be written
// there, so that a long run is not made for nothing; `fix` says how to choose another (the
// session's -Z flag, or the tool's -o).
void check_output_dir(const std::string& dir, std::string_view fix =
                                                  "Choose a writable directory with "
                                                  "'-Z profile-queries-dir=PATH'.");

// Runs every reporter of options.reporters into `files`; returns the paths written. Never
// throws: a report that cannot be written where asked goes to a private temporary directory,
// and every failure is told on stderr, after a line saying what was `done` ("recorded" by a
// run, "read" from a saved one). The raw stream is written while the program runs:
// `raw_path` is where it went (empty when it failed).
std::vector<std::string> write_reports(const Trace& trace, const SessionOptions& options,
                                       ReportFiles& files, const std::string& raw_path = {},
                                       std::string_view done = "recorded");

}  // namespace qprof::detail
