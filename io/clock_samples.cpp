#include "clock_samples.hpp"

namespace qprof::detail {

std::optional<double> ClockSamples::ns_per_tick() const {
    if (clock_ != 0) {
        return 1.0;  // steady and manual clocks count nanoseconds
    }
    if (samples_ > 0 && last_tick_ > start_tick_ && last_steady_ns_ > start_steady_ns_) {
        const double ratio = static_cast<double>(last_steady_ns_ - start_steady_ns_) /
                             static_cast<double>(last_tick_ - start_tick_);
        if (ratio >= 1e-3 && ratio <= 1e3) {
            return ratio;
        }
    }
    return std::nullopt;
}

}  // namespace qprof::detail
