// The raw stream's record of the process that ran (format 1.1): one definition, which the
// writer and the reader share. docs/raw-format.md describes the bytes.
//
//   write_process(block, run);       // the PROCESS block, right after SESSION
//   write_end_process(end, run);     // END's fields after `blocks`: end time, peak RSS
//   read_process(payload, run);      // and read_end_process: the same fields back
//
// The writes are the runtime's, the reads the io layer's (io/raw_optional_decode.cpp).
//
// Both are new to 1.1 in a way a 1.0 reader ignores: PROCESS is an optional block type, and
// END's new fields come after those it knows. A 1.0 stream has neither: its runs keep the
// program, pid and start time of SESSION, and leave the rest empty.
#pragma once

#include <qprof/trace.hpp>

#include "raw_format.hpp"

namespace qprof::detail {

// The command line is cut after this many bytes (a block holds at most 16 MiB).
inline constexpr std::size_t kMaxArgvBytes = 4u << 20;

void write_process(raw::BlockEncoder& out, const RunInfo& run);
void write_end_process(raw::BlockEncoder& out, const RunInfo& run);

// Throw raw::FormatError at a field that does not fit its block.
void read_process(raw::PayloadReader& in, RunInfo& run);
void read_end_process(raw::PayloadReader& in, RunInfo& run);

}  // namespace qprof::detail
