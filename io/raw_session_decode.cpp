// The decode halves of SESSION, CLOCK and END (src/raw_session.hpp), which only readers link.
#include <cmath>
#include <string>

#include "raw_cursor.hpp"
#include "raw_process.hpp"
#include "raw_session.hpp"

namespace qprof::detail::raw {

ReportOptions report_options(std::uint8_t bits, std::uint32_t extent, double percent) {
    ReportOptions report;
    for_each_report_switch(report, [&](bool& on, unsigned bit) { on = (bits >> bit & 1u) != 0; });
    report.important_extent = extent;
    report.important_percent = std::isfinite(percent) ? percent : 1.0;
    return report;
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

ClockBlock ClockBlock::decode(PayloadReader& in) {
    ClockBlock sample;
    sample.tick = in.u64();
    sample.steady_ns = in.u64();
    return sample;
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
