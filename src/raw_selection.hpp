// The raw stream's record of which events a run recorded (format 1.2): one definition, which
// the writer and the reader share. docs/raw-format.md describes the bytes.
//
//   write_selection(block, selection);   // the SELECTION block, right after PROCESS
//   read_selection(payload, selection);  // the same fields back
//
// SELECTION is an optional block type, so a 1.1 reader skips it; a run without one recorded
// every event (as every run of 1.0 and 1.1 did).
#pragma once

#include <qprof/detail/event_selection.hpp>

#include "raw_format.hpp"

namespace qprof::detail {

void write_selection(raw::BlockEncoder& out, const EventSelection& selection);
// Throws raw::FormatError at a field that does not fit its block.
void read_selection(raw::PayloadReader& in, EventSelection& selection);

}  // namespace qprof::detail
