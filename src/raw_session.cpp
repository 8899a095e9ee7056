#include "raw_session.hpp"

#include <cmath>
#include <string>

#include "raw_process.hpp"

namespace qprof::detail::raw {

namespace {

// Gives `visit` each switch of `report` with its bit in report_bits: one list for both
// directions. (Not a table of member pointers: GCC 12 with -fsanitize=address,undefined
// miscompiles a loop over one, reading its first entry every time.)
template <typename Report, typename Visit>
void for_each_switch(Report& report, Visit visit) {
    visit(report.folded_merge_threads, 0);
    visit(report.folded_hits, 1);
    visit(report.folded_keys, 2);
    visit(report.chrome_hits, 3);
    visit(report.chrome_keys, 4);
    visit(report.folded_args, 5);
    visit(report.folded_classes, 6);
    visit(report.folded_bytes, 7);
}

}  // namespace

std::uint8_t report_bits(const ReportOptions& report) {
    unsigned bits = 0;
    for_each_switch(report, [&](bool on, unsigned bit) { bits |= (on ? 1u : 0u) << bit; });
    return static_cast<std::uint8_t>(bits);
}

ReportOptions report_options(std::uint8_t bits, std::uint32_t extent, double percent) {
    ReportOptions report;
    for_each_switch(report, [&](bool& on, unsigned bit) { on = (bits >> bit & 1u) != 0; });
    report.important_extent = extent;
    report.important_percent = std::isfinite(percent) ? percent : 1.0;
    return report;
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

SessionBlock SessionBlock::decode(PayloadReader& in) {
    SessionBlock session;
    session.start_tick = in.u64();
    session.start_steady_ns = in.u64();
    session.process.start_unix_ns = static_cast<std::int64_t>(in.u64());
    const std::uint64_t clock_at = in.offset();
    const std::uint8_t clock = in.u8();
    if (clock > static_cast<std::uint8_t>(ClockKind::manual)) {
        in.fail(
            "unknown clock " + std::to_string(clock) + " (expected 0 tsc, 1 steady or 2 manual)",
            clock_at);
    }
    session.clock = static_cast<ClockKind>(clock);
    session.keys = in.u8() != 0;
    const std::uint8_t bits = in.u8();
    in.u8();
    const std::uint32_t extent = in.u32();
    session.report = report_options(bits, extent, in.f64());
    session.process.pid = in.u32();
    in.u32();
    session.process.program = std::string{in.str()};
    return session;
}

// CLOCK: u64 tick, u64 steady_ns.
void ClockBlock::encode(BlockEncoder& out) const {
    out.u64(tick);
    out.u64(steady_ns);
}

ClockBlock ClockBlock::decode(PayloadReader& in) {
    ClockBlock sample;
    sample.tick = in.u64();
    sample.steady_ns = in.u64();
    return sample;
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

EndBlock EndBlock::decode(PayloadReader& in) {
    EndBlock end;
    end.at.end_tick = in.offset();
    end.end_tick = in.u64();
    end.end_steady_ns = in.u64();
    end.at.ns_per_tick = in.offset();
    end.ns_per_tick = in.f64();
    if (!(end.ns_per_tick >= 1e-3 && end.ns_per_tick <= 1e3)) {
        in.fail("nanoseconds per tick is " + std::to_string(end.ns_per_tick) +
                    " (expected a number between 0.001 and 1000)",
                end.at.ns_per_tick);
    }
    end.at.events = in.offset();
    end.events = in.u64();
    if (in.remaining() >= 8) {
        end.blocks = in.u64();
        read_end_process(in, end.process);
    }
    return end;
}

}  // namespace qprof::detail::raw
