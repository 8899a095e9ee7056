#include "trace_merge.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "trace_completion.hpp"

namespace qprof::detail {

namespace {

// A run's place after the earliest start. Start times more than kMaxOffsetNs apart (13 days:
// a damaged or hand-made stream) are held at that distance, so that no node time overflows.
constexpr std::int64_t kMaxOffsetNs = std::int64_t{1} << 50;

std::int64_t timeline_offset(std::int64_t start_ns, std::int64_t earliest_ns) {
    const std::uint64_t distance =
        static_cast<std::uint64_t>(start_ns) - static_cast<std::uint64_t>(earliest_ns);
    return static_cast<std::int64_t>(std::min<std::uint64_t>(distance, kMaxOffsetNs));
}

class TraceMerger {
  public:
    void add(Trace&& trace, const std::string& name, std::int64_t offset_ns) {
        const std::vector<std::uint32_t> new_site = add_sites(trace);
        const std::vector<std::uint32_t> new_counter = add_measures(trace);
        const auto key_offset = static_cast<std::uint32_t>(merged_.key_texts.size());
        for (std::string& text : trace.key_texts) {
            merged_.key_texts.push_back(std::move(text));
        }
        for (ThreadTrace& thread : trace.threads) {
            for (NodeHead& node : thread.nodes.heads()) {
                node.site = new_site[node.site];
            }
            for (std::uint32_t& key : thread.keys) {
                key += key != 0 ? key_offset : 0;
            }
            for (CounterSeries& series : thread.counters) {
                series.counter = new_counter[series.counter];
            }
            move_on_timeline(thread, offset_ns);
            thread.index = static_cast<std::uint32_t>(merged_.threads.size());
            thread.run = static_cast<std::uint32_t>(merged_.runs.size());
            thread.name = name + " " + thread.name;
            merged_.threads.push_back(std::move(thread));
        }
        add_totals(trace);
        add_runs(trace, offset_ns);
        merged_.events += trace.events;
        merged_.keys_recorded = merged_.keys_recorded || trace.keys_recorded;
        merged_.memory_recorded = merged_.memory_recorded || trace.memory_recorded;
        merged_.selection.add_left_out(trace.selection);
        merged_.clock =
            merged_.clock.empty() || merged_.clock == trace.clock ? trace.clock : "mixed";
        merged_.ns_per_tick = trace.ns_per_tick;
    }

    Trace take() {
        number_colour_classes(classes_, merged_);
        sort_arguments(merged_.arguments);
        return std::move(merged_);
    }

  private:
    // Timed nodes move by the run's offset; a hit keeps its 0 (it read no clock).
    static void move_on_timeline(ThreadTrace& thread, std::int64_t offset_ns) {
        thread.nodes.edit([offset_ns](std::uint32_t, const NodeHead& node, NodeBody* body) {
            if (body != nullptr && node.outcome != Outcome::hit) {
                body->start += offset_ns;
                body->end += offset_ns;
            }
        });
        for (CounterSeries& series : thread.counters) {
            for (CounterSample& sample : series.samples) {
                sample.time_ns += offset_ns;
            }
        }
    }

    // Sizes and counters summed by name; returns each counter's index in the merged trace.
    std::vector<std::uint32_t> add_measures(const Trace& trace) {
        for (const SizeTotals& size : trace.sizes) {
            auto [it, added] =
                sizes_.try_emplace(size.name, static_cast<std::uint32_t>(merged_.sizes.size()));
            if (added) {
                merged_.sizes.push_back(SizeTotals{.name = size.name});
            }
            merged_.sizes[it->second].bytes += size.bytes;
            merged_.sizes[it->second].records += size.records;
        }
        std::vector<std::uint32_t> new_counter;
        for (const CounterTotals& counter : trace.counters) {
            auto [it, added] = counters_.try_emplace(
                counter.name, static_cast<std::uint32_t>(merged_.counters.size()));
            if (added) {
                merged_.counters.push_back(CounterTotals{
                    .name = counter.name, .samples = 0, .min = counter.min, .max = counter.max});
            }
            CounterTotals& sum = merged_.counters[it->second];
            sum.samples += counter.samples;
            sum.min = std::min(sum.min, counter.min);
            sum.max = std::max(sum.max, counter.max);
            new_counter.push_back(it->second);
        }
        return new_counter;
    }

    void add_runs(Trace& trace, std::int64_t offset_ns) {
        for (RunInfo& run : trace.runs) {
            run.start_offset_ns += offset_ns;
            merged_.wall_ns = std::max(merged_.wall_ns, run.start_offset_ns + run.wall_ns);
            merged_.runs.push_back(std::move(run));
        }
    }

    // A provider keeps the colour class of the first run that gave it one.
    std::uint32_t provider_index(const Trace& trace, const ProviderTotals& provider) {
        auto [it, added] = providers_.try_emplace(
            provider.key(), static_cast<std::uint32_t>(merged_.providers.size()));
        if (added) {
            merged_.providers.push_back(ProviderTotals{.provider = provider.provider,
                                                       .is_activity = provider.is_activity,
                                                       .is_region = provider.is_region});
            classes_.emplace_back();
        }
        if (classes_[it->second].empty()) {
            classes_[it->second] = trace.colour_class_of(provider);
        }
        return it->second;
    }

    std::vector<std::uint32_t> add_sites(const Trace& trace) {
        std::vector<std::uint32_t> new_site;
        for (const SiteInfo& site : trace.sites) {
            const std::uint32_t provider =
                provider_index(trace, trace.providers[site.provider_index]);
            auto [it, added] = sites_.try_emplace({site.provider, site.file, site.line, provider},
                                                  static_cast<std::uint32_t>(merged_.sites.size()));
            if (added) {
                merged_.sites.push_back(SiteInfo{site.provider, site.file, site.line, provider});
            }
            new_site.push_back(it->second);
        }
        return new_site;
    }

    static void add_memory(MemoryUse& sum, const MemoryUse& more) {
        sum.allocated_bytes += more.allocated_bytes;
        sum.allocations += more.allocations;
        sum.retained_bytes =
            static_cast<std::int64_t>(static_cast<std::uint64_t>(sum.retained_bytes) +
                                      static_cast<std::uint64_t>(more.retained_bytes));
    }

    void add_totals(Trace& trace) {
        for (const ProviderTotals& provider : trace.providers) {
            ProviderTotals& sum = merged_.providers[provider_index(trace, provider)];
            sum.count += provider.count;
            sum.hits += provider.hits;
            sum.misses += provider.misses;
            sum.total_ns += provider.total_ns;
            sum.self_ns += provider.self_ns;
            sum.blocked_ns += provider.blocked_ns;
            sum.blocked_self_ns += provider.blocked_self_ns;
            sum.load_ns += provider.load_ns;
            sum.cpu_ns += provider.cpu_ns;
            add_memory(sum.memory_total, provider.memory_total);
            add_memory(sum.memory_self, provider.memory_self);
        }
        for (ArgumentTotals& more : trace.arguments) {
            const std::uint32_t activity = provider_index(trace, trace.providers[more.activity]);
            auto [it, added] = arguments_.try_emplace(
                {activity, more.argument}, static_cast<std::uint32_t>(merged_.arguments.size()));
            if (added) {
                merged_.arguments.push_back(
                    ArgumentTotals{.activity = activity, .argument = std::move(more.argument)});
            }
            ArgumentTotals& sum = merged_.arguments[it->second];
            sum.runs += more.runs;
            sum.total_ns += more.total_ns;
            sum.cpu_ns += more.cpu_ns;
        }
    }

    Trace merged_;
    std::map<ProviderKey, std::uint32_t> providers_;
    std::vector<std::string> classes_;  // by merged provider index; empty: none yet
    std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> arguments_;
    std::map<std::string, std::uint32_t> sizes_;
    std::map<std::string, std::uint32_t> counters_;
    std::map<std::tuple<std::string, std::string, std::uint32_t, std::uint32_t>, std::uint32_t>
        sites_;
};

}  // namespace

std::string run_name(const RunInfo& run, std::size_t index) {
    const std::string program =
        run.program.empty() ? "run " + std::to_string(index + 1) : run.program;
    return program + "[" + std::to_string(run.pid) + "]";
}

Trace merge_traces(std::vector<Trace>&& runs) {
    if (runs.size() == 1) {
        return std::move(runs.front());
    }
    std::vector<std::string> names;
    for (std::size_t index = 0; index < runs.size(); ++index) {
        names.push_back(runs[index].runs.empty() ? run_name({}, index)
                                                 : run_name(runs[index].runs.front(), index));
    }
    std::vector<std::size_t> order(runs.size());
    for (std::size_t index = 0; index < order.size(); ++index) {
        order[index] = index;
    }
    const auto start_of = [&](std::size_t index) {
        return runs[index].runs.empty() ? 0 : runs[index].runs.front().start_unix_ns;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return start_of(a) < start_of(b); });
    const std::int64_t earliest = order.empty() ? 0 : start_of(order.front());
    TraceMerger merger;
    for (const std::size_t index : order) {
        merger.add(std::move(runs[index]), names[index],
                   timeline_offset(start_of(index), earliest));
    }
    return merger.take();
}

}  // namespace qprof::detail
