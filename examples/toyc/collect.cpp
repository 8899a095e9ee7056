// The front end: parsing and the item-level queries that everything after it asks. These are
// the providers of Ctx's qprof::Query members, which memoise and profile them: the bodies hold
// no cache lookups and no profiling code.
#include <memory>

#include "context.hpp"

namespace toyc {
namespace {

// Stands for tokenising and building the syntax tree, per item.
constexpr std::uint32_t kParseRoundsPerItem = 400;

// Items of std come from its "metadata": cheap, and computed without parsing anything.
std::uint64_t metadata_fingerprint(DefId id) { return mix(std::uint64_t{id.index} + 1); }

}  // namespace

// Shared rather than copied: every def_span of the module's items reads the same offsets.
std::shared_ptr<const ParsedModule> Ctx::provide_parse(std::uint32_t module) {
    const Module& extent = program_.modules[module];
    ParsedModule parsed{{}, mix(module)};
    std::uint32_t offset = 0;
    for (std::uint32_t index = extent.first; index < extent.first + extent.count; ++index) {
        parsed.item_offsets.push_back(offset);
        parsed.fingerprint = churn(parsed.fingerprint ^ index, kParseRoundsPerItem);
        offset += 40 + 12 * static_cast<std::uint32_t>(program_.items[index].callees.size()) +
                  static_cast<std::uint32_t>(parsed.fingerprint % 32);
    }
    parsed.item_offsets.push_back(offset);
    return std::make_shared<const ParsedModule>(std::move(parsed));
}

Span Ctx::provide_def_span(DefId id) {
    if (id.krate != kLocalCrate) {
        return Span{id.index * 64, id.index * 64 + 48};
    }
    const Item& item = program_.item(id);
    const std::shared_ptr<const ParsedModule> parsed = parse(item.module);
    const std::uint32_t local = id.index - program_.modules[item.module].first;
    return Span{parsed->item_offsets[local], parsed->item_offsets[local + 1]};
}

// A signature names other items, whose types are needed first: type_of of a module's first
// item recurses through the whole module, the deep chains of a real type collector.
Ty Ctx::provide_type_of(DefId id) {
    if (id.krate != kLocalCrate) {
        return metadata_fingerprint(id);
    }
    const Item& item = program_.item(id);
    Ty ty = combine(static_cast<std::uint64_t>(item.kind), def_span(id).lo);
    ty = combine(ty, generics_of(id).fingerprint);
    ty = combine(ty, predicates_of(id));
    for (const DefId named : item.signature) {
        ty = combine(ty, type_of(named));
    }
    return ty;
}

Generics Ctx::provide_generics_of(DefId id) {
    if (id.krate != kLocalCrate) {
        return Generics{id.index % 3, 0, metadata_fingerprint(id)};
    }
    const Item& item = program_.item(id);
    Generics generics{item.generic_params, 0, mix(id.index)};
    // The previous item of the module plays the enclosing item (an impl for a method).
    if (id.index > program_.modules[item.module].first) {
        const Generics parent = generics_of(local_item(id.index - 1));
        generics.parent_params = (parent.own_params + parent.parent_params) % 4;
        generics.fingerprint = combine(generics.fingerprint, parent.fingerprint);
    }
    return generics;
}

Predicates Ctx::provide_predicates_of(DefId id) {
    Predicates predicates = combine(generics_of(id).fingerprint, 0x70726564);
    if (id.krate == kLocalCrate) {
        for (const DefId bound : program_.item(id).bounds) {
            predicates = combine(predicates, type_of(bound));
        }
    }
    return predicates;
}

}  // namespace toyc
