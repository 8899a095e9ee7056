#include "trace_completion.hpp"

#include <cmath>
#include <map>
#include <utility>

namespace qprof::detail {

namespace {

void add_sites(const std::vector<detail::SiteInfo>& registered, Trace& trace) {
    std::map<std::pair<std::string, bool>, std::uint32_t> provider_index;
    for (const detail::SiteInfo& site : registered) {
        const bool is_activity = site.kind == SiteKind::activity;
        auto [it, added] = provider_index.try_emplace(
            {site.provider, is_activity}, static_cast<std::uint32_t>(trace.providers.size()));
        if (added) {
            ProviderTotals totals;
            totals.provider = site.provider;
            totals.is_activity = is_activity;
            trace.providers.push_back(totals);
        }
        trace.sites.push_back(qprof::SiteInfo{site.provider, site.file, site.line, it->second});
    }
}

std::int64_t to_ns(std::int64_t tick, const Calibration& calibration) {
    const double ticks = static_cast<double>(static_cast<std::uint64_t>(tick)) -
                         static_cast<double>(calibration.start_tick);
    return std::llround(ticks * calibration.ns_per_tick);
}

// Keeps only the providers this trace used, and their sites: sites registered by earlier
// sessions or code not run this time would be noise in every report.
void drop_unused_providers(Trace& trace) {
    constexpr std::uint32_t kUnused = ~0u;
    std::vector<std::uint32_t> new_provider(trace.providers.size(), kUnused);
    std::vector<ProviderTotals> providers;
    for (std::uint32_t i = 0; i < trace.providers.size(); ++i) {
        if (trace.providers[i].count > 0) {
            new_provider[i] = static_cast<std::uint32_t>(providers.size());
            providers.push_back(std::move(trace.providers[i]));
        }
    }
    std::vector<std::uint32_t> new_site(trace.sites.size(), kUnused);
    std::vector<qprof::SiteInfo> sites;
    for (std::uint32_t i = 0; i < trace.sites.size(); ++i) {
        if (new_provider[trace.sites[i].provider_index] != kUnused) {
            new_site[i] = static_cast<std::uint32_t>(sites.size());
            sites.push_back(std::move(trace.sites[i]));
            sites.back().provider_index = new_provider[sites.back().provider_index];
        }
    }
    for (ThreadTrace& thread : trace.threads) {
        for (Node& node : thread.nodes) {
            node.site = new_site[node.site];
        }
    }
    trace.providers = std::move(providers);
    trace.sites = std::move(sites);
}

}  // namespace

void add_totals(const ThreadTrace& thread, Trace& trace) {
    const NodeVector& nodes = thread.nodes;
    std::vector<std::uint32_t> open_per_provider(trace.providers.size(), 0);
    std::vector<std::uint32_t> enclosing;  // ancestors of the current node, innermost last
    for (std::uint32_t i = static_cast<std::uint32_t>(nodes.size()); i-- > 0;) {
        while (!enclosing.empty() && nodes[enclosing.back()].first > i) {
            --open_per_provider[trace.sites[nodes[enclosing.back()].site].provider_index];
            enclosing.pop_back();
        }
        const Node& node = nodes[i];
        const std::uint32_t provider = trace.sites[node.site].provider_index;
        ProviderTotals& totals = trace.providers[provider];
        ++totals.count;
        totals.hits += node.outcome == Outcome::hit;
        totals.misses += node.outcome == Outcome::miss;
        if (node.outcome != Outcome::hit) {
            const std::int64_t duration = node.duration_ns();
            if (open_per_provider[provider] == 0) {
                totals.total_ns += duration;  // not inside another run of the same provider
            }
            totals.self_ns += duration;
            if (!enclosing.empty()) {
                const std::uint32_t parent_site = nodes[enclosing.back()].site;
                trace.providers[trace.sites[parent_site].provider_index].self_ns -= duration;
            }
            totals.blocked_ns += node.outcome == Outcome::blocked ? duration : 0;
            totals.load_ns += node.outcome == Outcome::load ? duration : 0;
        }
        ++open_per_provider[provider];
        enclosing.push_back(i);
    }
}

Trace complete_trace(std::vector<TreeBuilder>& builders, const std::vector<std::string>& names,
                     const std::vector<detail::SiteInfo>& sites, const Calibration& calibration) {
    Trace trace;
    add_sites(sites, trace);
    trace.ns_per_tick = calibration.ns_per_tick;
    trace.wall_ns = to_ns(static_cast<std::int64_t>(calibration.end_tick), calibration);
    for (std::uint32_t index = 0; index < builders.size(); ++index) {
        NodeVector& nodes = builders[index].nodes();
        if (nodes.empty()) {
            continue;
        }
        ThreadTrace thread;
        thread.index = index;
        thread.name = index < names.size() ? names[index] : "thread " + std::to_string(index);
        for (Node& node : nodes) {
            if (node.outcome != Outcome::hit) {
                node.start_ns = to_ns(node.start_ns, calibration);
                node.end_ns = to_ns(node.end_ns, calibration);
            }
        }
        thread.nodes = std::move(nodes);
        add_totals(thread, trace);
        trace.threads.push_back(std::move(thread));
    }
    drop_unused_providers(trace);
    return trace;
}

}  // namespace qprof::detail
