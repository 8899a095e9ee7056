// The totals of a completed trace: builders' or nodes' sums in ticks, converted once
// (trace_totals.hpp).
#include "trace_totals.hpp"

#include "totals_builder.hpp"

namespace qprof::detail {

void sum_tree_totals(const ThreadTrace& thread, const std::vector<NewSite>& new_sites,
                     std::vector<TickTotals>& ticks, ArgumentTicks& arguments) {
    TotalsAccumulator totals;
    auto next_cpu = thread.activity_cpu.begin();
    std::uint32_t index = 0;
    for (const Node node : thread.nodes) {
        const std::uint32_t provider =
            node.site < new_sites.size() ? new_sites[node.site].provider : kUnused;
        totals.add(provider, node.depth, node.outcome, node.start, node.end,
                   thread.keys.empty() ? 0 : thread.keys[index]);
        if (!thread.memory.empty() && node.outcome != Outcome::hit && !node.unfinished) {
            totals.add_memory(provider, node.depth, MemoryAmount::of(thread.memory[index]));
        }
        if (next_cpu != thread.activity_cpu.end() && next_cpu->node == index) {
            totals.add_cpu(provider, static_cast<std::uint64_t>(next_cpu->cpu_ns));
            ++next_cpu;
        }
        ++index;
    }
    totals.add_to(ticks);
    totals.add_arguments_to(arguments);
}

std::vector<TickTotals> builders_totals(const TraceInputs& inputs, const Trace& trace,
                                        ArgumentTicks& arguments) {
    std::vector<TickTotals> by_slot;
    ArgumentTicks arguments_by_slot;
    for (const TotalsBuilder& builder : inputs.totals) {
        builder.totals().add_to(by_slot);
        builder.totals().add_arguments_to(arguments_by_slot);
    }
    std::map<ProviderKey, std::uint32_t> slot_of;
    for (std::uint32_t slot = 0; slot < by_slot.size(); ++slot) {
        slot_of[inputs.slots.providers()[slot]] = slot;
    }
    std::vector<TickTotals> ticks(trace.providers.size());
    std::vector<std::uint32_t> index_of_slot(by_slot.size(), kUnused);
    for (std::uint32_t index = 0; index < trace.providers.size(); ++index) {
        const auto found = slot_of.find(trace.providers[index].key());
        if (found != slot_of.end()) {
            ticks[index] = by_slot[found->second];
            index_of_slot[found->second] = index;
        }
    }
    for (const auto& [pair, sums] : arguments_by_slot) {
        const auto slot = static_cast<std::uint32_t>(pair >> 32);
        if (slot < index_of_slot.size() && index_of_slot[slot] != kUnused) {
            arguments[ArgumentSums::pair_of(index_of_slot[slot],
                                            static_cast<std::uint32_t>(pair))] = sums;
        }
    }
    return ticks;
}

void set_totals(const std::vector<TickTotals>& ticks, const TickConverter& to_ns, Trace& trace) {
    for (std::uint32_t index = 0; index < ticks.size() && index < trace.providers.size(); ++index) {
        const TickTotals& sum = ticks[index];
        ProviderTotals& totals = trace.providers[index];
        totals.count = sum.count;
        totals.hits = sum.hits;
        totals.misses = sum.misses;
        totals.total_ns = to_ns.duration(sum.total);
        totals.self_ns = to_ns.duration(sum.self);
        totals.blocked_ns = to_ns.duration(sum.blocked);
        totals.blocked_self_ns = to_ns.duration(sum.blocked_self);
        totals.load_ns = to_ns.duration(sum.load);
        totals.memory_total = sum.memory_total.use();
        totals.memory_self = sum.memory_self.use();
        totals.cpu_ns = sum.cpu_ns;
    }
}

void set_arguments(const ArgumentTicks& arguments, const TickConverter& to_ns,
                   const std::vector<std::string>& key_texts, Trace& trace) {
    for (const auto& [pair, sums] : arguments) {
        const auto activity = static_cast<std::uint32_t>(pair >> 32);
        const auto text = static_cast<std::uint32_t>(pair);
        if (activity >= trace.providers.size() || text == 0 || text > key_texts.size()) {
            continue;
        }
        trace.arguments.push_back(
            ArgumentTotals{.activity = activity,
                           .argument = key_texts[text - 1],
                           .runs = sums.runs,
                           .total_ns = to_ns.duration(static_cast<std::int64_t>(sums.total)),
                           .cpu_ns = static_cast<std::int64_t>(sums.cpu_ns)});
    }
    sort_arguments(trace.arguments);
}

}  // namespace qprof::detail
