#include "trace_completion.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace qprof::detail {

namespace {

constexpr std::uint32_t kUnused = ~0u;

// Which site ids any thread used.
template <typename Builder>
std::vector<bool> sites_used(const std::vector<Builder>& builders) {
    std::vector<bool> used;
    for (const Builder& builder : builders) {
        const std::vector<bool>& seen = builder.sites_seen();
        used.resize(std::max(used.size(), seen.size()), false);
        for (std::size_t id = 0; id < seen.size(); ++id) {
            used[id] = used[id] || seen[id];
        }
    }
    return used;
}

// The used sites in id order, and the providers they name; returns the index each site id
// gets in trace.sites (kUnused for the others). Sites registered by earlier sessions or by
// code not run this time would be noise in every report.
std::vector<std::uint32_t> add_used_sites(const std::vector<SiteInfo>& registered,
                                          const std::vector<bool>& used, Trace& trace) {
    std::vector<std::uint32_t> new_site(std::max(registered.size(), used.size()), kUnused);
    std::map<std::pair<std::string, bool>, std::uint32_t> provider_index;
    for (std::uint32_t id = 0; id < registered.size() && id < used.size(); ++id) {
        if (!used[id]) {
            continue;
        }
        const SiteInfo& site = registered[id];
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

void add_totals(const TickTotals& ticks, const TickConverter& to_ns, ProviderTotals& totals) {
    totals.count += ticks.count;
    totals.hits += ticks.hits;
    totals.misses += ticks.misses;
    totals.total_ns += to_ns.duration(ticks.total);
    totals.self_ns += to_ns.duration(ticks.self);
    totals.blocked_ns += to_ns.duration(ticks.blocked);
    totals.load_ns += to_ns.duration(ticks.load);
}

ThreadTrace& add_thread(Trace& trace, std::uint32_t index, const TraceInputs& inputs) {
    ThreadTrace& thread = trace.threads.emplace_back();
    thread.index = index;
    thread.name = index < inputs.thread_names.size() && !inputs.thread_names[index].empty()
                      ? inputs.thread_names[index]
                      : "thread " + std::to_string(index);
    return thread;
}

// A thread's nodes: site indexes into trace.sites, totals summed in ticks, then times in
// nanoseconds.
void complete_tree(ThreadTrace& thread, const std::vector<std::uint32_t>& new_site,
                   const TickConverter& to_ns, Trace& trace) {
    TotalsAccumulator ticks;
    for (Node& node : thread.nodes) {
        node.site = node.site < new_site.size() ? new_site[node.site] : kUnused;
        ticks.add(trace.sites[node.site].provider_index, node.depth, node.outcome, node.start_ns,
                  node.end_ns);
        if (node.outcome != Outcome::hit) {
            node.start_ns = to_ns(node.start_ns);
            node.end_ns = to_ns(node.end_ns);
        }
    }
    const std::vector<TickTotals>& totals = ticks.totals();
    for (std::uint32_t provider = 0; provider < totals.size(); ++provider) {
        add_totals(totals[provider], to_ns, trace.providers[provider]);
    }
    trace.events += thread.nodes.size();
}

void complete_trees(TraceInputs& inputs, const TickConverter& to_ns, Trace& trace) {
    const std::vector<std::uint32_t> new_site =
        add_used_sites(inputs.sites, sites_used(inputs.trees), trace);
    for (std::uint32_t index = 0; index < inputs.trees.size(); ++index) {
        TreeBuilder& builder = inputs.trees[index];
        if (builder.nodes().empty()) {
            continue;
        }
        ThreadTrace& thread = add_thread(trace, index, inputs);
        thread.nodes = std::move(builder.nodes());
        thread.keys = std::move(builder.keys());
        complete_tree(thread, new_site, to_ns, trace);
    }
}

void complete_totals(TraceInputs& inputs, const TickConverter& to_ns, Trace& trace) {
    add_used_sites(inputs.sites, sites_used(inputs.totals), trace);
    std::map<std::pair<std::string, bool>, std::uint32_t> provider_index;
    for (std::uint32_t index = 0; index < trace.providers.size(); ++index) {
        provider_index[{trace.providers[index].provider, trace.providers[index].is_activity}] =
            index;
    }
    for (std::uint32_t index = 0; index < inputs.totals.size(); ++index) {
        const TotalsBuilder& builder = inputs.totals[index];
        if (builder.events() == 0) {
            continue;
        }
        add_thread(trace, index, inputs);
        const std::vector<TickTotals>& totals = builder.totals().totals();
        for (std::uint32_t slot = 0; slot < totals.size(); ++slot) {
            const auto found = provider_index.find(inputs.slots.providers()[slot]);
            if (found != provider_index.end()) {
                add_totals(totals[slot], to_ns, trace.providers[found->second]);
            }
        }
        trace.events += builder.events();
    }
}

}  // namespace

std::int64_t TickConverter::duration(std::int64_t ticks) const {
    if (ns_per_tick == 1.0) {
        return ticks;
    }
    const double ns = std::round(static_cast<double>(ticks) * ns_per_tick);
    constexpr double kLimit = 9.2e18;  // within int64, so that the conversion is defined
    return static_cast<std::int64_t>(std::clamp(ns, -kLimit, kLimit));
}

Trace complete_trace(TraceInputs&& inputs) {
    Trace trace;
    const Calibration& calibration = inputs.calibration;
    const TickConverter to_ns{static_cast<std::int64_t>(calibration.start_tick),
                              calibration.ns_per_tick};
    trace.ns_per_tick = calibration.ns_per_tick;
    trace.wall_ns = to_ns(static_cast<std::int64_t>(calibration.end_tick));
    if (!inputs.totals.empty()) {
        complete_totals(inputs, to_ns, trace);
    } else {
        complete_trees(inputs, to_ns, trace);
    }
    trace.clock = std::move(inputs.clock);
    trace.keys_recorded = inputs.keys_recorded;
    trace.key_texts = std::move(inputs.key_texts);
    return trace;
}

}  // namespace qprof::detail
