// What a run's CLOCK blocks say about its clock: the latest calibration sample, from which
// the tick rate of a run cut before its END (which states the rate) is estimated.
//
//   ClockSamples samples{clock, start_tick, start_steady_ns};   // at SESSION
//   samples.add(tick, steady_ns);                               // at each CLOCK
//   std::optional<double> rate = samples.ns_per_tick();         // when the run is cut
#pragma once

#include <cstdint>
#include <optional>

namespace qprof::detail {

class ClockSamples {
  public:
    ClockSamples() = default;
    // `clock` as the SESSION block codes it (0 tsc, 1 steady, 2 manual).
    ClockSamples(std::uint8_t clock, std::uint64_t start_tick, std::uint64_t start_steady_ns)
        : clock_(clock), start_tick_(start_tick), start_steady_ns_(start_steady_ns) {}

    void add(std::uint64_t tick, std::uint64_t steady_ns) {
        last_tick_ = tick;
        last_steady_ns_ = steady_ns;
        ++samples_;
    }

    // The tick of the latest sample (0 before any).
    std::uint64_t last_tick() const { return last_tick_; }

    // Nanoseconds per tick: 1 for the clocks that count nanoseconds, the rate from the start
    // to the latest sample for the TSC; none when no sound sample says it.
    std::optional<double> ns_per_tick() const;

  private:
    std::uint8_t clock_ = 0;
    std::uint64_t start_tick_ = 0;
    std::uint64_t start_steady_ns_ = 0;
    std::uint64_t last_tick_ = 0;
    std::uint64_t last_steady_ns_ = 0;
    std::uint32_t samples_ = 0;
};

}  // namespace qprof::detail
