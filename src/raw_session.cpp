#include "raw_session.hpp"

#include "raw_process.hpp"

namespace qprof::detail::raw {

std::uint8_t report_bits(const ReportOptions& report) {
    unsigned bits = 0;
    for_each_report_switch(report, [&](bool on, unsigned bit) { bits |= (on ? 1u : 0u) << bit; });
    return static_cast<std::uint8_t>(bits);
}

// SESSION: u64 start_tick, u64 start_steady_ns, u64 start_unix_ns, u8 clock, u8 keys,
// u8 report_bits, u8 reserved, u32 important_extent, f64 important_percent, u32 pid,
// u32 reserved, str program.
void SessionBlock::encode(BlockEncoder& out) const {
    out.u64(start_tick);
    out.u64(start_steady_ns);
    out.u64(static_cast<std::uint64_t>(process.start_unix_ns));
    out.u8(static_cast<std::uint8_t>(clock));
    out.u8(keys ? 1 : 0);
    out.u8(report_bits(report));
    out.u8(0);
    out.u32(report.important_extent);
    out.f64(report.important_percent);
    out.u32(process.pid);
    out.u32(0);
    out.str(process.program);
}

// CLOCK: u64 tick, u64 steady_ns.
void ClockBlock::encode(BlockEncoder& out) const {
    out.u64(tick);
    out.u64(steady_ns);
}

// END: u64 end_tick, u64 end_steady_ns, f64 ns_per_tick, u64 events, then from 1.1 u64 blocks
// and the process's end (raw_process.hpp).
void EndBlock::encode(BlockEncoder& out) const {
    out.u64(end_tick);
    out.u64(end_steady_ns);
    out.f64(ns_per_tick);
    out.u64(events);
    out.u64(blocks);
    write_end_process(out, process);
}

}  // namespace qprof::detail::raw
