// Reads profile_queries.qprof back into the inputs the live collector would have had, so that
// complete_trace and every reporter work on a saved run exactly as on a live one.
//
//   ReadResult read = read_stream(bytes, {.keep_nodes = true});
//   for (const Diagnostic& d : read.diagnostics) print(d);      // damage, with byte offsets
//   for (RecordedRun& run : read.runs) use(complete_trace(std::move(run.inputs)));
#pragma once

#include <cstdint>
#include <functional>
#include <qprof/report_options.hpp>
#include <span>
#include <string>
#include <vector>

#include "trace_completion.hpp"

namespace qprof::detail {

// One run of the program: a SESSION ... END segment of the stream.
struct RecordedRun {
    TraceInputs inputs;
    ReportOptions report;   // the -Z report options the run was started with
    bool complete = false;  // its END block was read
};

struct Diagnostic {
    enum class Severity { warning, error };
    Severity severity = Severity::error;
    std::uint64_t offset = 0;  // in the file
    std::string text;
};

struct ReadOptions {
    bool keep_nodes = true;  // false: per-provider totals only, in flat memory
    // Called now and then with the bytes read so far.
    std::function<void(std::uint64_t done)> progress;
};

struct ReadResult {
    std::vector<RecordedRun> runs;
    std::vector<Diagnostic> diagnostics;
    bool foreign = false;  // not a stream this qprof reads: nothing in it was used
    bool damaged = false;  // truncated or corrupt: the runs hold what came before the damage
};

// Never throws on bad input: every problem becomes a diagnostic.
ReadResult read_stream(std::span<const unsigned char> bytes, const ReadOptions& options);

}  // namespace qprof::detail
