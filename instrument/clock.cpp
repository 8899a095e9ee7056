#include <time.h>

#include <chrono>
#include <qprof/detail/clock.hpp>

#include "manual_clock.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace qprof::detail {

ClockKind g_clock_kind = ClockKind::steady;

namespace {
ManualClock g_manual_clock = nullptr;
}

std::uint64_t steady_ns() {
    auto since_epoch = std::chrono::steady_clock::now().time_since_epoch();
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch).count());
}

std::uint64_t read_other_clock() {
    if (g_clock_kind == ClockKind::manual && g_manual_clock != nullptr) {
        return g_manual_clock();
    }
    return steady_ns();
}

void set_manual_clock(ManualClock now) { g_manual_clock = now; }

bool manual_clock_is_set() { return g_manual_clock != nullptr; }

namespace {
ManualClock g_manual_cpu_clock = nullptr;
}

void set_manual_cpu_clock(ManualClock cpu_now) { g_manual_cpu_clock = cpu_now; }

std::uint64_t thread_cpu_ns() {
    if (g_clock_kind == ClockKind::manual && g_manual_cpu_clock != nullptr) {
        return g_manual_cpu_clock();
    }
    timespec cpu{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    return static_cast<std::uint64_t>(cpu.tv_sec) * 1'000'000'000u +
           static_cast<std::uint64_t>(cpu.tv_nsec);
}

bool tsc_is_usable() {
#if defined(__x86_64__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    // GCC's cpuid.h returns unsigned, clang's int.
    if (static_cast<unsigned>(__get_cpuid_max(0x80000000u, nullptr)) < 0x80000007u) {
        return false;
    }
    __cpuid(0x80000007u, eax, ebx, ecx, edx);
    return (edx & (1u << 8)) != 0;  // invariant TSC
#elif defined(__aarch64__)
    return true;
#else
    return false;
#endif
}

std::string_view clock_name(ClockKind kind) {
    switch (kind) {
        case ClockKind::tsc:
            return "tsc";
        case ClockKind::steady:
            return "steady";
        case ClockKind::manual:
            return "manual";
    }
    return "unknown";
}

}  // namespace qprof::detail
