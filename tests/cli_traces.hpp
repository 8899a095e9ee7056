// Traces built by hand for the qprof tool's tests: per-provider totals only, as a totals-only
// read of a saved run leaves them; and a command's arguments parsed from a braced list.
#pragma once

#include <cstdint>
#include <qprof/trace.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/args.hpp"

namespace qprof::test {

inline constexpr std::int64_t kMs = 1'000'000;

inline qprof::ProviderTotals provider(std::string name, std::int64_t self_ms, std::uint64_t count,
                                      std::uint64_t hits) {
    qprof::ProviderTotals totals;
    totals.provider = std::move(name);
    totals.self_ns = self_ms * kMs;
    totals.total_ns = self_ms * kMs + kMs / 2;
    totals.count = count;
    totals.hits = hits;
    totals.misses = count - hits;
    return totals;
}

inline qprof::ProviderTotals activity(std::string name, std::int64_t self_ms) {
    qprof::ProviderTotals totals = provider(std::move(name), self_ms, 1, 0);
    totals.is_activity = true;
    return totals;
}

inline qprof::Trace trace_of(std::vector<qprof::ProviderTotals> providers, std::int64_t wall_ms,
                             const std::vector<std::uint32_t>& nodes_per_thread) {
    qprof::Trace trace;
    trace.providers = std::move(providers);
    trace.wall_ns = wall_ms * kMs;
    for (std::uint32_t nodes : nodes_per_thread) {
        trace.threads.emplace_back();  // the counts are what a totals-only read leaves
        trace.events += nodes;
    }
    return trace;
}

// A provider's memory as -Z profile-queries-memory records it: `self_kib` KiB of its own in
// `allocations`, and what its callees allocated on top for the inclusive numbers; a quarter of
// each retained.
inline void set_memory(qprof::ProviderTotals& totals, std::uint64_t self_kib,
                       std::uint64_t allocations, std::uint64_t callees_kib = 0) {
    const std::uint64_t self = self_kib * 1024;
    const std::uint64_t total = self + callees_kib * 1024;
    totals.memory_self = {self, allocations, static_cast<std::int64_t>(self / 4)};
    totals.memory_total = {total, allocations + callees_kib, static_cast<std::int64_t>(total / 4)};
}

inline qprof::cli::ParsedArgs parse(const qprof::cli::CommandSpec& command,
                                    std::vector<std::string> words) {
    return qprof::cli::parse_args(command, words);
}

}  // namespace qprof::test
