// The per-provider statistics finished from what the walks over the nodes gathered
// (html_stats.cpp): durations into mean, median, max and histogram; the most-asked keys; the
// top callers and callees.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <unordered_map>

#include "html_payload_layout.hpp"
#include "html_stats.hpp"

namespace qprof::detail::html {

namespace {

// Eight buckets a power of two, in the order of the values: below 8, a bucket a value (negative
// values in 0's); from 8 on, by the highest bit (of 4 to 63 bits) and the three below it.
constexpr std::size_t kFineBuckets = 8 + (63 - 3) * 8;
using FineCounts = std::array<std::uint32_t, kFineBuckets>;

std::size_t fine_bucket(std::int64_t value) {
    const auto bits = static_cast<std::uint64_t>(std::max<std::int64_t>(value, 0));
    if (bits < 8) {
        return bits;
    }
    const auto width = static_cast<std::size_t>(std::bit_width(bits));  // 4 to 63
    return (width - 3) * 8 + ((bits >> (width - 4)) & 7);
}

// The values fine_bucket puts in `bucket`: from `first` to `last`, both included.
struct BucketRange {
    std::int64_t first;
    std::int64_t last;
};
BucketRange range_of(std::size_t bucket) {
    if (bucket < 8) {  // 0 holds every value below 1
        return {bucket == 0 ? std::numeric_limits<std::int64_t>::min()
                            : static_cast<std::int64_t>(bucket),
                static_cast<std::int64_t>(bucket)};
    }
    const std::size_t shift = bucket / 8 - 1;  // the width less 4
    const auto top = static_cast<std::uint64_t>(8 + bucket % 8);
    return {static_cast<std::int64_t>(top << shift),
            static_cast<std::int64_t>(((top + 1) << shift) - 1)};  // the last: 2^63 - 1
}

// The k-th smallest of `values`, counted by fine bucket in `counts`.
std::int64_t kth_counted(std::vector<std::int64_t>& values, std::size_t k,
                         const FineCounts& counts) {
    std::size_t bucket = 0;
    std::size_t before = 0;  // values in the buckets before `bucket`
    while (before + counts[bucket] <= k) {
        before += counts[bucket++];
    }
    // The bucket's values moved to the front, in no order; the k-th is among them. Two
    // comparisons a value, not its bucket found again.
    const BucketRange range = range_of(bucket);
    std::size_t kept = 0;
    for (const std::int64_t value : values) {
        values[kept] = value;
        kept += value >= range.first && value <= range.last ? 1 : 0;
    }
    const auto nth = values.begin() + static_cast<std::ptrdiff_t>(k - before);
    std::nth_element(values.begin(), nth, values.begin() + static_cast<std::ptrdiff_t>(kept));
    return *nth;
}

}  // namespace

std::int64_t kth_smallest(std::vector<std::int64_t>& values, std::size_t k) {
    FineCounts counts{};
    for (const std::int64_t value : values) {
        ++counts[fine_bucket(value)];
    }
    return kth_counted(values, k, counts);
}

void finish_durations(ProviderStats& stats, std::vector<std::int64_t>& durations) {
    if (durations.empty()) {
        return;
    }
    // One pass for the sums and both counts by bucket, then the median from its bucket.
    std::int64_t sum = 0;
    FineCounts counts{};
    for (const std::int64_t ns : durations) {
        sum += ns;
        stats.max_ns = std::max(stats.max_ns, ns);
        ++stats.histogram[histogram_bucket(ns)];
        ++counts[fine_bucket(ns)];
    }
    stats.mean_ns = sum / static_cast<std::int64_t>(durations.size());
    stats.median_ns = kth_counted(durations, (durations.size() - 1) / 2, counts);  // lower middle
}

void finish_keys(std::vector<ProviderStats>& stats,
                 const std::unordered_map<std::uint64_t, KeyAsks>& asks) {
    for (const auto& [id, key] : asks) {
        stats[id >> 32].keys.push_back(key);
    }
    for (ProviderStats& provider : stats) {
        std::vector<KeyAsks>& keys = provider.keys;
        auto before = [](const KeyAsks& a, const KeyAsks& b) {
            return a.asked != b.asked ? a.asked > b.asked : a.key < b.key;
        };
        const auto kept =
            keys.begin() + static_cast<std::ptrdiff_t>(std::min(keys.size(), kTopKeys));
        std::partial_sort(keys.begin(), kept, keys.end(), before);
        keys.erase(kept, keys.end());
    }
}

void finish_calls(std::vector<ProviderStats>& stats,
                  const std::unordered_map<std::uint64_t, CallEdge>& edges) {
    for (const auto& [id, edge] : edges) {
        const auto caller = static_cast<std::uint32_t>(id >> 32);
        const auto callee = static_cast<std::uint32_t>(id);
        stats[callee].callers.push_back(CallEdge{caller, edge.calls, edge.ns});
        if (caller != kTopLevel) {
            stats[caller].callees.push_back(CallEdge{callee, edge.calls, edge.ns});
        }
    }
    // As the payload writes it, the top level is -1: ties put it before every provider, as
    // the viewer's range statistics (range_scan.js) order it.
    auto rank = [](std::uint32_t provider) {
        return provider == kTopLevel ? std::int64_t{layout::kTopLevelCaller}
                                     : std::int64_t{provider};
    };
    auto before = [&](const CallEdge& a, const CallEdge& b) {
        return a.ns != b.ns         ? a.ns > b.ns
               : a.calls != b.calls ? a.calls > b.calls
                                    : rank(a.provider) < rank(b.provider);
    };
    for (ProviderStats& provider : stats) {
        for (std::vector<CallEdge>* list : {&provider.callers, &provider.callees}) {
            const auto kept =
                list->begin() + static_cast<std::ptrdiff_t>(std::min(list->size(), kTopCallers));
            std::partial_sort(list->begin(), kept, list->end(), before);
            list->erase(kept, list->end());
        }
    }
}

}  // namespace qprof::detail::html
