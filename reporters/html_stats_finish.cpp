// The per-provider statistics finished from what the walks over the nodes gathered
// (html_stats.cpp): durations into mean, median, max and histogram; the most-asked keys; the
// top callers and callees.
#include <algorithm>
#include <unordered_map>

#include "html_payload_layout.hpp"
#include "html_stats.hpp"

namespace qprof::detail::html {

void finish_durations(ProviderStats& stats, std::vector<std::int64_t>& durations) {
    if (durations.empty()) {
        return;
    }
    std::int64_t sum = 0;
    for (const std::int64_t ns : durations) {
        sum += ns;
        stats.max_ns = std::max(stats.max_ns, ns);
        ++stats.histogram[histogram_bucket(ns)];
    }
    stats.mean_ns = sum / static_cast<std::int64_t>(durations.size());
    const auto middle = durations.begin() + static_cast<std::ptrdiff_t>((durations.size() - 1) / 2);
    std::nth_element(durations.begin(), middle, durations.end());
    stats.median_ns = *middle;
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
