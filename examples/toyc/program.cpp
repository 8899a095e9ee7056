#include "program.hpp"

#include <algorithm>

#include "hashing.hpp"

namespace toyc {
namespace {

constexpr std::uint32_t kStdItems = 48;

ItemKind pick_kind(SplitMix64& rng) {
    const std::uint32_t roll = rng.below(100);
    return roll < 70 ? ItemKind::function : roll < 90 ? ItemKind::structure : ItemKind::trait;
}

// An item a signature or bound may name without creating a cycle: one of std, or of a module
// before the current one.
DefId pick_earlier(SplitMix64& rng, std::uint32_t module_first) {
    if (module_first == 0 || rng.chance(40)) {
        return std_item(rng.below(kStdItems));
    }
    return local_item(rng.below(module_first));
}

// Most bodies are small; a few are huge, like the generated or macro-heavy functions that
// give a real compiler its widest query nodes.
std::uint32_t pick_body_length(SplitMix64& rng) {
    const std::uint32_t roll = rng.below(100);
    if (roll < 90) {
        return rng.between(4, 28);
    }
    return roll < 98 ? rng.between(30, 60) : rng.between(60, 200);
}

std::vector<DefId> pick_callees(SplitMix64& rng, std::uint32_t item_count) {
    std::vector<DefId> callees(pick_body_length(rng));
    for (DefId& callee : callees) {
        callee =
            rng.chance(25) ? std_item(rng.below(kStdItems)) : local_item(rng.below(item_count));
    }
    return callees;
}

Item generate_item(SplitMix64& rng, const Module& module, std::uint32_t index,
                   std::uint32_t item_count) {
    Item item{pick_kind(rng), 0, rng.chance(60) ? 0 : rng.between(1, 3), {}, {}, {}};
    if (index + 1 < module.first + module.count) {
        item.signature.push_back(local_item(index + 1));
    }
    for (std::uint32_t n = rng.below(4); n > 0; --n) {
        item.signature.push_back(pick_earlier(rng, module.first));
    }
    for (std::uint32_t n = item.generic_params == 0 ? 0 : rng.between(1, 2); n > 0; --n) {
        item.bounds.push_back(pick_earlier(rng, module.first));
    }
    if (item.kind == ItemKind::function) {
        item.callees = pick_callees(rng, item_count);
    }
    return item;
}

}  // namespace

Program generate_program(std::uint32_t item_count, std::uint64_t seed) {
    SplitMix64 rng{seed};
    Program program;
    program.std_items = kStdItems;
    program.items.reserve(item_count);
    for (std::uint32_t first = 0; first < item_count;) {
        const std::uint32_t count = std::min(rng.between(20, 40), item_count - first);
        const Module module{first, count};
        const auto module_index = static_cast<std::uint32_t>(program.modules.size());
        for (std::uint32_t index = first; index < first + count; ++index) {
            program.items.push_back(generate_item(rng, module, index, item_count));
            program.items.back().module = module_index;
        }
        program.modules.push_back(module);
        first += count;
    }
    return program;
}

}  // namespace toyc
