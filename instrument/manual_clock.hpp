// A deterministic clock for qprof's own tests: every read returns now(); ticks are
// nanoseconds. Not installed; tests reach it through src/testing.hpp. A session under it keeps
// no timer: its raw stream is not written on the real clock (src/testing.hpp says when it is).
#pragma once

#include <cstdint>

namespace qprof::detail {

using ManualClock = std::uint64_t (*)();
void set_manual_clock(ManualClock now);  // nullptr: back to the real clocks
bool manual_clock_is_set();
// The thread CPU clock under the manual clock, so that activities' CPU times are exact too;
// nullptr: the thread's real CPU clock.
void set_manual_cpu_clock(ManualClock cpu_now);

}  // namespace qprof::detail
