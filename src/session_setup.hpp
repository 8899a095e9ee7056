// What a session decides from its options before it records: the clock, what the collector
// keeps, the raw stream's file, the stem of the report files, and the one recording a process
// may have at a time. Each failure is a SessionError (FlagError, OutputError) that names the
// problem and its fix.
#pragma once

#include <memory>
#include <qprof/session.hpp>
#include <string>

#include "collector.hpp"
#include "colour_classes.hpp"
#include "raw_writer.hpp"
#include "recording_control.hpp"
#include "report_files.hpp"
#include "run_info.hpp"

namespace qprof::detail {

// The clock asked for (-Z profile-clock), or steady_clock where no usable TSC exists; the
// manual clock whenever a test has set it.
ClockKind choose_clock(ClockChoice choice);

// Says on stderr which flags were given without -Z profile-queries, where they do nothing.
void warn_unused_flags(const SessionOptions& options);

bool wants_raw(const SessionOptions& options);

// Trees when some report draws the trace (or none is asked: the program reads the trace),
// totals when every report reads totals only.
CollectMode collect_mode(const SessionOptions& options, bool build_trace);

// Creates the raw stream's file and writes its first blocks.
std::unique_ptr<RawWriter> open_raw(const SessionOptions& options, ClockKind clock,
                                    const RecordingStart& start, const RunInfo& run,
                                    const ColourRules& colours, ReportFiles& files);

// The stem of the report files: -Z profile-queries-name's pattern, with the program's name made
// a file name (no '/', no control bytes).
std::string expand_name(const std::string& pattern, std::string program);

// Begins recording; a second session while one records is a SessionError that says what to do.
RecordingStart begin_sole_recording(ClockKind clock, const SessionOptions& opts);

}  // namespace qprof::detail
