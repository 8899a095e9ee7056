// The raw stream's record of which events a run recorded (format 1.2): one definition, which
// the writer and the reader share. docs/raw-format.md describes the bytes.
//
//   write_selection(block, selection);   // the SELECTION block, right after PROCESS
//   read_selection(payload, selection);  // the same fields back
//
// write_selection is the runtime's, read_selection the io layer's (io/raw_optional_decode.cpp).
// SELECTION is an optional block type, so a 1.1 reader skips it; a run without one recorded
// every event (as every run of 1.0 and 1.1 did).
#pragma once

#include <qprof/detail/event_selection.hpp>

#include "raw_format.hpp"

namespace qprof::detail {

// The kinds, by their bit in SELECTION's `left_out`: one table for both directions.
inline constexpr bool EventSelection::*kSelectionKindBits[] = {
    &EventSelection::hits,  &EventSelection::activities, &EventSelection::waits,
    &EventSelection::loads, &EventSelection::sizes,      &EventSelection::counters};

void write_selection(raw::BlockEncoder& out, const EventSelection& selection);
// Throws raw::FormatError at a field that does not fit its block.
void read_selection(raw::PayloadReader& in, EventSelection& selection);

}  // namespace qprof::detail
