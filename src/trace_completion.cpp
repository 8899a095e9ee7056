#include "trace_completion.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace qprof::detail {

namespace {

constexpr std::uint32_t kUnused = ~0u;

// The sites any thread used, in id order, and the providers they name; returns the index
// each site id gets in trace.sites (kUnused for the others). Sites registered by earlier
// sessions or by code not run this time would be noise in every report.
std::vector<std::uint32_t> add_used_sites(const std::vector<detail::SiteInfo>& registered,
                                          const std::vector<TreeBuilder>& builders, Trace& trace) {
    std::vector<std::uint32_t> new_site(registered.size(), kUnused);
    std::map<std::pair<std::string, bool>, std::uint32_t> provider_index;
    for (std::uint32_t id = 0; id < registered.size(); ++id) {
        const bool used = std::any_of(builders.begin(), builders.end(), [id](const auto& b) {
            return id < b.sites_seen().size() && b.sites_seen()[id];
        });
        if (!used) {
            continue;
        }
        const detail::SiteInfo& site = registered[id];
        const bool is_activity = site.kind == SiteKind::activity;
        auto [it, added] = provider_index.try_emplace(
            {site.provider, is_activity}, static_cast<std::uint32_t>(trace.providers.size()));
        if (added) {
            trace.providers.push_back(
                ProviderTotals{.provider = site.provider, .is_activity = is_activity});
        }
        new_site[id] = static_cast<std::uint32_t>(trace.sites.size());
        trace.sites.push_back(qprof::SiteInfo{site.provider, site.file, site.line, it->second});
    }
    return new_site;
}

// Raw ticks to nanoseconds from the session start.
struct TickConverter {
    std::int64_t start_tick;
    double ns_per_tick;

    std::int64_t operator()(std::int64_t tick) const {
        const std::int64_t ticks = tick - start_tick;
        if (ns_per_tick == 1.0) {
            return ticks;
        }
        return static_cast<std::int64_t>(static_cast<double>(ticks) * ns_per_tick + 0.5);
    }
};

// One pass over a thread's nodes, parents before children (reverse post-order): gives each
// node its site index in the trace and its times in nanoseconds, and adds it to the totals.
void complete_thread(ThreadTrace& thread, const std::vector<std::uint32_t>& new_site,
                     const TickConverter& to_ns, Trace& trace) {
    NodeVector& nodes = thread.nodes;
    std::vector<std::uint32_t> open_per_provider(trace.providers.size(), 0);
    std::vector<std::uint32_t> enclosing;  // providers of the current node's ancestors
    std::vector<std::uint32_t> enclosing_first;
    for (std::uint32_t i = static_cast<std::uint32_t>(nodes.size()); i-- > 0;) {
        while (!enclosing_first.empty() && enclosing_first.back() > i) {
            --open_per_provider[enclosing.back()];
            enclosing.pop_back();
            enclosing_first.pop_back();
        }
        Node& node = nodes[i];
        node.site = new_site[node.site];
        const std::uint32_t provider = trace.sites[node.site].provider_index;
        ProviderTotals& totals = trace.providers[provider];
        ++totals.count;
        totals.hits += node.outcome == Outcome::hit;
        totals.misses += node.outcome == Outcome::miss;
        if (node.outcome != Outcome::hit) {
            node.start_ns = to_ns(node.start_ns);
            node.end_ns = to_ns(node.end_ns);
            const std::int64_t duration = node.duration_ns();
            if (open_per_provider[provider] == 0) {
                totals.total_ns += duration;  // not inside another run of the same provider
            }
            totals.self_ns += duration;
            if (!enclosing.empty()) {
                trace.providers[enclosing.back()].self_ns -= duration;
            }
            totals.blocked_ns += node.outcome == Outcome::blocked ? duration : 0;
            totals.load_ns += node.outcome == Outcome::load ? duration : 0;
        }
        ++open_per_provider[provider];
        enclosing.push_back(provider);
        enclosing_first.push_back(node.first);
    }
}

}  // namespace

Trace complete_trace(std::vector<TreeBuilder>& builders, const std::vector<std::string>& names,
                     const std::vector<detail::SiteInfo>& sites, const Calibration& calibration) {
    Trace trace;
    const std::vector<std::uint32_t> new_site = add_used_sites(sites, builders, trace);
    const TickConverter to_ns{static_cast<std::int64_t>(calibration.start_tick),
                              calibration.ns_per_tick};
    trace.ns_per_tick = calibration.ns_per_tick;
    trace.wall_ns = to_ns(static_cast<std::int64_t>(calibration.end_tick));
    for (std::uint32_t index = 0; index < builders.size(); ++index) {
        if (builders[index].nodes().empty()) {
            continue;
        }
        ThreadTrace& thread = trace.threads.emplace_back();
        thread.index = index;
        thread.name = index < names.size() ? names[index] : "thread " + std::to_string(index);
        thread.nodes = std::move(builders[index].nodes());
        thread.keys = std::move(builders[index].keys());
        complete_thread(thread, new_site, to_ns, trace);
    }
    return trace;
}

}  // namespace qprof::detail
