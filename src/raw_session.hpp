// The raw stream's frame of a run: the SESSION block that opens it, the CLOCK samples inside it
// and the END block that closes it. One definition of each, which the writer and the reader
// share; docs/raw-format.md describes the bytes.
//
//   raw::SessionBlock{...}.encode(block);                  // the writer, first in a run
//   raw::SessionBlock session = raw::SessionBlock::decode(payload);   // the reader
//
// encode is the runtime's (raw_session.cpp), decode the io layer's (io/raw_session_decode.cpp),
// so that a profiled program links no reading code. decode reads the fields in order and throws
// raw::FormatError, at the field's offset, for a field past the payload's end or a value the block
// may not hold. What only the run can check (END's tick against the records) is the reader's, at
// the offsets decode gives.
#pragma once

#include <cstdint>
#include <qprof/detail/clock.hpp>
#include <qprof/report_options.hpp>
#include <qprof/trace.hpp>

#include "raw_format.hpp"

namespace qprof::detail::raw {

// Gives `visit` each switch of `report` with its bit in report_bits: one list for both
// directions, report_bits and report_options. (Not a table of member pointers: GCC 12 with
// -fsanitize=address,undefined miscompiles a loop over one, reading its first entry every time.)
template <typename Report, typename Visit>
void for_each_report_switch(Report& report, Visit visit) {
    visit(report.folded_merge_threads, 0);
    visit(report.folded_hits, 1);
    visit(report.folded_keys, 2);
    visit(report.chrome_hits, 3);
    visit(report.chrome_keys, 4);
    visit(report.folded_args, 5);
    visit(report.folded_classes, 6);
    visit(report.folded_bytes, 7);
}

// SESSION's report_bits: the -Z report options that are switches, one bit each.
std::uint8_t report_bits(const ReportOptions& report);
// The options back from report_bits, EXTENT and PERCENT (1.0 when it is not finite); the
// io layer's, like decode.
ReportOptions report_options(std::uint8_t bits, std::uint32_t extent, double percent);

struct SessionBlock {
    std::uint64_t start_tick = 0;
    std::uint64_t start_steady_ns = 0;
    ClockKind clock = ClockKind::tsc;
    bool keys = false;  // key records and their texts follow
    ReportOptions report;
    // The process: only its start time, pid and program are SESSION's; PROCESS carries the rest.
    RunInfo process;

    void encode(BlockEncoder& out) const;
    static SessionBlock decode(PayloadReader& in);
};

// A calibration sample: the clock and steady_clock read together.
struct ClockBlock {
    std::uint64_t tick = 0;
    std::uint64_t steady_ns = 0;

    void encode(BlockEncoder& out) const;
    static ClockBlock decode(PayloadReader& in);
};

struct EndBlock {
    std::uint64_t end_tick = 0;
    std::uint64_t end_steady_ns = 0;
    double ns_per_tick = 1.0;  // decode refuses one outside 0.001 to 1000
    std::uint64_t events = 0;  // records of kinds 1 to 5 in the run
    // The process: its end time and peak RSS (from 1.1; a 1.0 END has neither).
    RunInfo process;
    std::uint64_t blocks = 0;  // in the run, SESSION and END included (from 1.1)

    // Where decode found the fields the reader checks against the run's records.
    struct Offsets {
        std::uint64_t end_tick = 0;
        std::uint64_t ns_per_tick = 0;
        std::uint64_t events = 0;
    } at{};

    void encode(BlockEncoder& out) const;
    static EndBlock decode(PayloadReader& in);
};

}  // namespace qprof::detail::raw
