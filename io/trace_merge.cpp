#include "trace_merge.hpp"

#include <map>
#include <tuple>

namespace qprof::detail {

namespace {

class TraceMerger {
  public:
    void add(NamedTrace&& run) {
        Trace& trace = run.trace;
        const std::vector<std::uint32_t> new_site = add_sites(trace);
        const auto key_offset = static_cast<std::uint32_t>(merged_.key_texts.size());
        for (std::string& text : trace.key_texts) {
            merged_.key_texts.push_back(std::move(text));
        }
        for (ThreadTrace& thread : trace.threads) {
            for (Node& node : thread.nodes) {
                node.site = new_site[node.site];
            }
            for (std::uint32_t& key : thread.keys) {
                key += key != 0 ? key_offset : 0;
            }
            thread.index = static_cast<std::uint32_t>(merged_.threads.size());
            thread.name = run.run_name + " " + thread.name;
            merged_.threads.push_back(std::move(thread));
        }
        add_totals(trace);
        merged_.wall_ns += trace.wall_ns;
        merged_.events += trace.events;
        merged_.keys_recorded = merged_.keys_recorded || trace.keys_recorded;
        merged_.clock =
            merged_.clock.empty() || merged_.clock == trace.clock ? trace.clock : "mixed";
        merged_.ns_per_tick = trace.ns_per_tick;
    }

    Trace take() { return std::move(merged_); }

  private:
    std::uint32_t provider_index(const ProviderTotals& provider) {
        auto [it, added] =
            providers_.try_emplace({provider.provider, provider.is_activity},
                                   static_cast<std::uint32_t>(merged_.providers.size()));
        if (added) {
            merged_.providers.push_back(
                ProviderTotals{.provider = provider.provider, .is_activity = provider.is_activity});
        }
        return it->second;
    }

    std::vector<std::uint32_t> add_sites(const Trace& trace) {
        std::vector<std::uint32_t> new_site;
        for (const SiteInfo& site : trace.sites) {
            const std::uint32_t provider = provider_index(trace.providers[site.provider_index]);
            auto [it, added] = sites_.try_emplace({site.provider, site.file, site.line, provider},
                                                  static_cast<std::uint32_t>(merged_.sites.size()));
            if (added) {
                merged_.sites.push_back(SiteInfo{site.provider, site.file, site.line, provider});
            }
            new_site.push_back(it->second);
        }
        return new_site;
    }

    void add_totals(const Trace& trace) {
        for (const ProviderTotals& provider : trace.providers) {
            ProviderTotals& sum = merged_.providers[provider_index(provider)];
            sum.count += provider.count;
            sum.hits += provider.hits;
            sum.misses += provider.misses;
            sum.total_ns += provider.total_ns;
            sum.self_ns += provider.self_ns;
            sum.blocked_ns += provider.blocked_ns;
            sum.load_ns += provider.load_ns;
        }
    }

    Trace merged_;
    std::map<std::pair<std::string, bool>, std::uint32_t> providers_;
    std::map<std::tuple<std::string, std::string, std::uint32_t, std::uint32_t>, std::uint32_t>
        sites_;
};

}  // namespace

Trace merge_traces(std::vector<NamedTrace>&& runs) {
    if (runs.size() == 1) {
        return std::move(runs.front().trace);
    }
    TraceMerger merger;
    for (NamedTrace& run : runs) {
        merger.add(std::move(run));
    }
    return merger.take();
}

}  // namespace qprof::detail
