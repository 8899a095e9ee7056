#include "trace_completion.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <system_error>
#include <thread>
#include <utility>

#include "trace_totals.hpp"

namespace qprof::detail {

namespace {

// Which site ids any thread used.
template <typename Builder>
std::vector<bool> sites_used(const std::vector<Builder>& builders) {
    std::vector<bool> used;
    for (const Builder& builder : builders) {
        const SitesSeen& seen = builder.sites_seen();
        used.resize(std::max(used.size(), seen.size()), false);
        for (std::size_t id = 0; id < seen.size(); ++id) {
            used[id] = used[id] || seen[id] != SiteSeen::no;
        }
    }
    return used;
}

// The used sites in id order, and the providers they name; returns the index each site id
// gets in trace.sites (kUnused for the others). Sites registered by earlier sessions or by
// code not run this time would be noise in every report.
std::vector<std::uint32_t> add_used_sites(const std::vector<RegisteredSite>& registered,
                                          const std::vector<bool>& used, Trace& trace) {
    std::vector<std::uint32_t> new_site(std::max(registered.size(), used.size()), kUnused);
    std::map<ProviderKey, std::uint32_t> provider_index;
    std::vector<std::string> classes;  // by provider index: its first classed site's
    for (std::uint32_t id = 0; id < registered.size() && id < used.size(); ++id) {
        if (!used[id]) {
            continue;
        }
        const RegisteredSite& site = registered[id];
        const bool is_activity = site.kind != SiteKind::query;
        auto [it, added] = provider_index.try_emplace(
            {site.provider, is_activity}, static_cast<std::uint32_t>(trace.providers.size()));
        if (added) {
            classes.emplace_back();
            trace.providers.push_back(ProviderTotals{.provider = site.provider,
                                                     .is_activity = is_activity,
                                                     .is_region = site.kind == SiteKind::region});
        }
        new_site[id] = static_cast<std::uint32_t>(trace.sites.size());
        trace.sites.push_back(qprof::SiteInfo{site.provider, site.file, site.line, it->second});
        if (!site.colour_class.empty() && classes[it->second].empty()) {
            classes[it->second] = site.colour_class;
        }
    }
    number_colour_classes(classes, trace);
    return new_site;
}

ThreadTrace& add_thread(Trace& trace, std::uint32_t index, const TraceInputs& inputs) {
    ThreadTrace& thread = trace.threads.emplace_back();
    thread.index = index;
    thread.name = index < inputs.thread_names.size() && !inputs.thread_names[index].empty()
                      ? inputs.thread_names[index]
                      : "thread " + std::to_string(index);
    return thread;
}

// Trace::sizes and Trace::counters: each site's sums over every thread, then by name in order of
// site id. Returns the index in Trace::counters of each counter's site id.
template <typename Builder>
std::vector<std::uint32_t> add_measures(const std::vector<Builder>& builders,
                                        const std::vector<RegisteredSite>& sites, Trace& trace) {
    std::vector<MeasureBuilder::Sum> sums;
    std::vector<MeasureBuilder::Range> ranges;
    for (const Builder& builder : builders) {
        const MeasureBuilder& measures = builder.measures();
        sums.resize(std::max(sums.size(), measures.sizes().size()));
        for (std::size_t id = 0; id < measures.sizes().size(); ++id) {
            sums[id].bytes += measures.sizes()[id].bytes;
            sums[id].records += measures.sizes()[id].records;
        }
        ranges.resize(std::max(ranges.size(), measures.counters().size()));
        for (std::size_t id = 0; id < measures.counters().size(); ++id) {
            const MeasureBuilder::Range& more = measures.counters()[id];
            MeasureBuilder::Range& range = ranges[id];
            if (more.samples > 0) {
                range.min = range.samples == 0 ? more.min : std::min(range.min, more.min);
                range.max = range.samples == 0 ? more.max : std::max(range.max, more.max);
                range.samples += more.samples;
            }
        }
    }
    const auto name_of = [&](std::size_t id) {
        return id < sites.size() ? sites[id].provider : std::string{};
    };
    std::map<std::string, std::uint32_t> size_index;
    for (std::size_t id = 0; id < sums.size(); ++id) {
        if (sums[id].records > 0) {
            auto [it, added] =
                size_index.try_emplace(name_of(id), static_cast<std::uint32_t>(trace.sizes.size()));
            if (added) {
                trace.sizes.push_back(SizeTotals{.name = it->first});
            }
            trace.sizes[it->second].bytes += sums[id].bytes;
            trace.sizes[it->second].records += sums[id].records;
        }
    }
    std::map<std::string, std::uint32_t> counter_index;
    std::vector<std::uint32_t> counter_of_site(ranges.size(), kUnused);
    for (std::size_t id = 0; id < ranges.size(); ++id) {
        const MeasureBuilder::Range& range = ranges[id];
        if (range.samples > 0) {
            auto [it, added] = counter_index.try_emplace(
                name_of(id), static_cast<std::uint32_t>(trace.counters.size()));
            if (added) {
                trace.counters.push_back(CounterTotals{
                    .name = it->first, .samples = 0, .min = range.min, .max = range.max});
            }
            CounterTotals& totals = trace.counters[it->second];
            totals.samples += range.samples;
            totals.min = std::min(totals.min, range.min);
            totals.max = std::max(totals.max, range.max);
            counter_of_site[id] = it->second;
        }
    }
    return counter_of_site;
}

// A thread's counter values, one series per counter, times in nanoseconds.
void add_counter_series(ThreadTrace& thread, const MeasureBuilder& measures,
                        const std::vector<std::uint32_t>& counter_of_site,
                        const TickConverter& to_ns) {
    std::vector<std::uint32_t> series_of;
    for (const MeasureBuilder::Sample& sample : measures.samples()) {
        const std::uint32_t counter = counter_of_site[sample.site];
        if (counter >= series_of.size()) {
            series_of.resize(counter + 1, kUnused);
        }
        if (series_of[counter] == kUnused) {
            series_of[counter] = static_cast<std::uint32_t>(thread.counters.size());
            thread.counters.push_back(CounterSeries{.counter = counter, .samples = {}});
        }
        thread.counters[series_of[counter]].samples.push_back(
            CounterSample{to_ns(static_cast<std::int64_t>(sample.tick)), sample.value});
    }
}

std::vector<NewSite> new_sites(const std::vector<std::uint32_t>& new_site, const Trace& trace) {
    std::vector<NewSite> sites(new_site.size());
    for (std::size_t id = 0; id < new_site.size(); ++id) {
        if (new_site[id] != kUnused) {
            sites[id] = {new_site[id], trace.sites[new_site[id]].provider_index};
        }
    }
    return sites;
}

// From this many nodes a thread's are completed in two halves, one on a thread of its own: on
// the end of the run's path, with the other core idle, the pass took 1.3 ms for 280,000 nodes,
// which the collector's core had written (and still holds in its cache) during the run.
constexpr std::uint32_t kSplitBlocks = 64 * 1024 / 64;
std::atomic<std::uint32_t> split_blocks{kSplitBlocks};  // unless a test sets another

// A thread's nodes: site indexes into trace.sites, then times in nanoseconds.
void complete_tree(ThreadTrace& thread, const std::vector<NewSite>& new_sites,
                   const TickConverter& to_ns) {
    // One load a node for both indexes, from a table held in locals: the node's head, written
    // here, might otherwise alias the vector's size and data and have them read again each time.
    const NewSite* const sites = new_sites.data();
    const std::size_t site_count = new_sites.size();
    const auto complete = [sites, site_count, &to_ns](std::uint32_t, NodeHead& node,
                                                      NodeBody* body) {
        node.site = node.site < site_count ? sites[node.site].site : kUnused;
        if (body != nullptr && node.outcome != Outcome::hit) {  // a timed node
            body->end = clamped_end(body->start, body->end);    // the totals' rule, for its times
            body->start = to_ns(body->start);
            body->end = to_ns(body->end);
        }
    };
    NodeStore& nodes = thread.nodes;
    const std::uint32_t half = nodes.blocks() / 2;
    std::jthread other;
    if (nodes.blocks() >= split_blocks.load(std::memory_order_relaxed)) {
        try {
            other = std::jthread{
                [&nodes, &complete, half] { nodes.edit_blocks(half, nodes.blocks(), complete); }};
        } catch (const std::system_error&) {  // no thread could start: all of it here
        }
    }
    nodes.edit_blocks(0, other.joinable() ? half : nodes.blocks(), complete);
}

// Returns the totals in ticks by provider index; `arguments` by provider index too.
std::vector<TickTotals> complete_trees(TraceInputs& inputs, const TickConverter& to_ns,
                                       Trace& trace, ArgumentTicks& arguments) {
    const std::vector<NewSite> sites =
        new_sites(add_used_sites(inputs.sites, sites_used(inputs.trees), trace), trace);
    const std::vector<std::uint32_t> counter_of_site =
        add_measures(inputs.trees, inputs.sites, trace);
    const bool summed = !inputs.totals.empty();  // by the collector, while the run went on
    std::vector<TickTotals> ticks;
    for (std::uint32_t index = 0; index < inputs.trees.size(); ++index) {
        TreeBuilder& builder = inputs.trees[index];
        if (builder.nodes().empty() && builder.measures().samples().empty()) {
            continue;
        }
        ThreadTrace& thread = add_thread(trace, index, inputs);
        add_counter_series(thread, builder.measures(), counter_of_site, to_ns);
        thread.nodes = std::move(builder.nodes());
        thread.keys = std::move(builder.keys());
        if (!builder.memory().empty()) {
            thread.memory = std::move(builder.memory());
            thread.memory.resize(thread.nodes.size());
            trace.memory_recorded = true;
        }
        thread.activity_cpu = std::move(builder.activity_cpu());
        if (!summed) {
            sum_tree_totals(thread, sites, ticks, arguments);
        }
        complete_tree(thread, sites, to_ns);
        trace.events += thread.nodes.size();
    }
    return summed ? builders_totals(inputs, trace, arguments) : ticks;
}

// Returns the totals in ticks by provider index; `arguments` by provider index too.
std::vector<TickTotals> complete_totals(TraceInputs& inputs, Trace& trace,
                                        ArgumentTicks& arguments) {
    add_used_sites(inputs.sites, sites_used(inputs.totals), trace);
    add_measures(inputs.totals, inputs.sites, trace);
    for (std::uint32_t index = 0; index < inputs.totals.size(); ++index) {
        const TotalsBuilder& builder = inputs.totals[index];
        if (builder.events() == 0) {
            continue;
        }
        add_thread(trace, index, inputs);
        trace.events += builder.events();
        trace.memory_recorded = trace.memory_recorded || builder.memory_seen();
    }
    return builders_totals(inputs, trace, arguments);
}

// A provider a program left unnamed gets a visible name: an empty one would be an empty cell,
// a row starting with a comma, or "" in every report.
void name_the_unnamed(Trace& trace) {
    constexpr std::string_view kUnnamed = "<unnamed>";
    for (ProviderTotals& provider : trace.providers) {
        if (provider.provider.empty()) {
            provider.provider = kUnnamed;
        }
    }
    for (qprof::SiteInfo& site : trace.sites) {
        if (site.provider.empty()) {
            site.provider = kUnnamed;
        }
    }
    for (SizeTotals& size : trace.sizes) {
        size.name = size.name.empty() ? std::string{kUnnamed} : size.name;
    }
    for (CounterTotals& counter : trace.counters) {
        counter.name = counter.name.empty() ? std::string{kUnnamed} : counter.name;
    }
}

}  // namespace

void number_colour_classes(const std::vector<std::string>& classes, Trace& trace) {
    trace.colour_classes = classes;
    std::sort(trace.colour_classes.begin(), trace.colour_classes.end());
    trace.colour_classes.erase(
        std::unique(trace.colour_classes.begin(), trace.colour_classes.end()),
        trace.colour_classes.end());
    if (!trace.colour_classes.empty() && trace.colour_classes.front().empty()) {
        trace.colour_classes.erase(trace.colour_classes.begin());
    }
    for (std::size_t p = 0; p < classes.size(); ++p) {
        const auto found =
            std::lower_bound(trace.colour_classes.begin(), trace.colour_classes.end(), classes[p]);
        trace.providers[p].colour_class =
            classes[p].empty()
                ? 0
                : static_cast<std::uint32_t>(found - trace.colour_classes.begin()) + 1;
    }
}

void sort_arguments(std::vector<ArgumentTotals>& arguments) {
    std::sort(
        arguments.begin(), arguments.end(), [](const ArgumentTotals& a, const ArgumentTotals& b) {
            if (a.activity != b.activity) {
                return a.activity < b.activity;
            }
            return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.argument < b.argument;
        });
}

std::int64_t TickConverter::clamped(double ns) {
    return static_cast<std::int64_t>(std::clamp(std::round(ns), -kLimit, kLimit));
}

Trace complete_trace(TraceInputs&& inputs) {
    Trace trace;
    const Calibration& calibration = inputs.calibration;
    const TickConverter to_ns{static_cast<std::int64_t>(calibration.start_tick),
                              calibration.ns_per_tick};
    trace.ns_per_tick = calibration.ns_per_tick;
    trace.wall_ns = to_ns(static_cast<std::int64_t>(calibration.end_tick));
    ArgumentTicks arguments;  // by provider index and key text id
    set_totals(inputs.trees.empty() ? complete_totals(inputs, trace, arguments)
                                    : complete_trees(inputs, to_ns, trace, arguments),
               to_ns, trace);
    set_arguments(arguments, to_ns, inputs.key_texts, trace);
    name_the_unnamed(trace);
    trace.clock = std::move(inputs.clock);
    trace.program = inputs.run.program;
    trace.pid = inputs.run.pid;
    inputs.run.wall_ns = trace.wall_ns;
    inputs.run.events = trace.events;
    trace.runs.push_back(std::move(inputs.run));
    trace.keys_recorded = inputs.keys_recorded;
    trace.selection = std::move(inputs.selection);
    trace.key_texts = std::move(inputs.key_texts);
    return trace;
}

std::uint32_t set_completion_split_blocks(std::uint32_t blocks) {
    return split_blocks.exchange(blocks, std::memory_order_relaxed);
}

}  // namespace qprof::detail
