// Writes the selected reports into the output directory and says where on stderr.
#pragma once

#include <filesystem>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <qprof/trace.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::detail {

// Where `reporter`'s report goes in `dir`: profile_queries.<file_suffix>.
std::filesystem::path report_path(const std::filesystem::path& dir, const Reporter& reporter);

// Throws FlagError naming the directory and the reason when reports cannot be written
// there, so that a long run is not made for nothing.
void check_output_dir(const std::string& dir);

// Runs every reporter of options.reporters; returns the paths written. Never throws: a
// report that cannot be written where asked goes to the temporary directory, and every
// failure is told on stderr, after a line saying what was `done` ("recorded" by a run,
// "read" from a saved one). The raw stream is written while the program runs: `raw_path` is
// where it went (empty when it failed).
std::vector<std::string> write_reports(const Trace& trace, const SessionOptions& options,
                                       const std::string& raw_path = {},
                                       std::string_view done = "recorded");

}  // namespace qprof::detail
