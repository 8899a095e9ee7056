// The clock of the hot path: raw ticks, converted to nanoseconds off the hot path.
//
//   std::uint64_t t0 = qprof::detail::now();
//   ...
//   std::uint64_t t1 = qprof::detail::now();   // (t1 - t0) * ns_per_tick, after calibration
//
// TSC ticks (rdtsc on x86-64, the virtual counter on aarch64) are calibrated against
// std::chrono::steady_clock over the whole session; steady_clock itself is used where no
// usable TSC exists or when asked (-Z profile-clock=steady).
#pragma once

#include <cstdint>
#include <string_view>

#if defined(__x86_64__) || defined(_M_X64)
#include <x86intrin.h>
#endif

namespace qprof::detail {

enum class ClockKind : std::uint8_t { tsc, steady, manual };

// Selected by the session before recording starts; read on every clock read.
extern ClockKind g_clock_kind;

// "tsc", "steady" or "manual", as reports and the raw stream name the clock.
std::string_view clock_name(ClockKind kind);

inline std::uint64_t read_tsc() {
#if defined(__x86_64__) || defined(_M_X64)
    return __rdtsc();
#elif defined(__aarch64__)
    std::uint64_t ticks;
    asm volatile("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
#else
    return 0;
#endif
}

// The out-of-line reads: steady_clock in nanoseconds, or the manual clock of the tests
// (instrument/manual_clock.hpp).
std::uint64_t read_other_clock();

inline std::uint64_t now() {
    if (g_clock_kind == ClockKind::tsc) [[likely]] {
        return read_tsc();
    }
    return read_other_clock();
}

// Whether this CPU has a TSC that ticks at a constant rate in every power state and on
// every core (x86-64: CPUID invariant TSC; aarch64: the generic timer always does).
bool tsc_is_usable();

std::uint64_t steady_ns();

// The CPU time this thread has used, in ns (CLOCK_THREAD_CPUTIME_ID: a system call's worth,
// read for activities only).
std::uint64_t thread_cpu_ns();

}  // namespace qprof::detail
