// Sizes and counters as the collector (or the reader of a saved stream) finds them in one
// thread's records, by site id, in clock ticks; complete_trace names and converts them
// (Trace::sizes, Trace::counters, ThreadTrace::counters). Both builders keep one, the tree
// builder with every counter value, the totals builder with their totals only (flat memory).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace qprof::detail {

class MeasureBuilder {
  public:
    struct Sum {
        std::uint64_t bytes = 0;
        std::uint64_t records = 0;
    };
    struct Range {
        std::uint64_t samples = 0;
        std::int64_t min = 0;
        std::int64_t max = 0;
    };
    struct Sample {
        std::uint32_t site = 0;
        std::uint64_t tick = 0;
        std::int64_t value = 0;
    };

    explicit MeasureBuilder(bool keep_samples) : keep_samples_(keep_samples) {}

    void size(std::uint32_t site, std::uint64_t bytes) {
        Sum& sum = at(sizes_, site);
        sum.bytes += bytes;
        ++sum.records;
    }
    void counter(std::uint32_t site, std::uint64_t tick, std::int64_t value) {
        Range& range = at(counters_, site);
        range.min = range.samples == 0 ? value : std::min(range.min, value);
        range.max = range.samples == 0 ? value : std::max(range.max, value);
        ++range.samples;
        if (keep_samples_) {
            samples_.push_back(Sample{site, tick, value});
        }
    }

    // By site id; records 0 for a site that recorded no size.
    const std::vector<Sum>& sizes() const { return sizes_; }
    // By site id; samples 0 for a site that recorded no counter value.
    const std::vector<Range>& counters() const { return counters_; }
    // Every counter value in the order recorded, when kept.
    const std::vector<Sample>& samples() const { return samples_; }

  private:
    template <typename T>
    static T& at(std::vector<T>& by_site, std::uint32_t site) {
        if (site >= by_site.size()) [[unlikely]] {
            by_site.resize(site + 1);
        }
        return by_site[site];
    }

    bool keep_samples_;
    std::vector<Sum> sizes_;
    std::vector<Range> counters_;
    std::vector<Sample> samples_;
};

}  // namespace qprof::detail
