// The front end: parsing and the item-level queries that everything after it asks.
#include <qprof/qprof.hpp>

#include "context.hpp"

namespace toyc {
namespace {

// Stands for tokenising and building the syntax tree, per item.
constexpr std::uint32_t kParseRoundsPerItem = 400;

// Items of std come from its "metadata": cheap, and computed without parsing anything.
std::uint64_t metadata_fingerprint(DefId id) { return mix(std::uint64_t{id.index} + 1); }

}  // namespace

const ParsedModule& Ctx::parse(std::uint32_t module) {
    if (const auto it = parsed_.find(module); it != parsed_.end()) {
        PROFILE_QUERY_HIT(parse, module);
        return it->second;
    }
    PROFILE_QUERY(parse, module);
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
    return parsed_.emplace(module, std::move(parsed)).first->second;
}

Span Ctx::def_span(DefId id) {
    if (const auto it = spans_.find(id); it != spans_.end()) {
        PROFILE_QUERY_HIT(def_span, id);
        return it->second;
    }
    PROFILE_QUERY(def_span, id);
    Span span{id.index * 64, id.index * 64 + 48};
    if (id.krate == kLocalCrate) {
        const Item& item = program_.item(id);
        const ParsedModule& parsed = parse(item.module);
        const std::uint32_t local = id.index - program_.modules[item.module].first;
        span = Span{parsed.item_offsets[local], parsed.item_offsets[local + 1]};
    }
    spans_.emplace(id, span);
    return span;
}

Ty Ctx::type_of(DefId id) {
    if (const auto it = types_.find(id); it != types_.end()) {
        PROFILE_QUERY_HIT(type_of, id);
        return it->second;
    }
    PROFILE_QUERY(type_of, id);
    const Ty ty = id.krate == kLocalCrate ? local_type_of(id) : metadata_fingerprint(id);
    types_.emplace(id, ty);
    return ty;
}

// A signature names other items, whose types are needed first: type_of of a module's first
// item recurses through the whole module, the deep chains of a real type collector.
Ty Ctx::local_type_of(DefId id) {
    const Item& item = program_.item(id);
    Ty ty = combine(static_cast<std::uint64_t>(item.kind), def_span(id).lo);
    ty = combine(ty, generics_of(id).fingerprint);
    ty = combine(ty, predicates_of(id));
    for (const DefId named : item.signature) {
        ty = combine(ty, type_of(named));
    }
    return ty;
}

const Generics& Ctx::generics_of(DefId id) {
    if (const auto it = generics_.find(id); it != generics_.end()) {
        PROFILE_QUERY_HIT(generics_of, id);
        return it->second;
    }
    PROFILE_QUERY(generics_of, id);
    Generics generics{id.index % 3, 0, metadata_fingerprint(id)};
    if (id.krate == kLocalCrate) {
        const Item& item = program_.item(id);
        generics = Generics{item.generic_params, 0, mix(id.index)};
        // The previous item of the module plays the enclosing item (an impl for a method).
        if (id.index > program_.modules[item.module].first) {
            const Generics& parent = generics_of(local_item(id.index - 1));
            generics.parent_params = (parent.own_params + parent.parent_params) % 4;
            generics.fingerprint = combine(generics.fingerprint, parent.fingerprint);
        }
    }
    return generics_.emplace(id, generics).first->second;
}

Predicates Ctx::predicates_of(DefId id) {
    if (const auto it = predicates_.find(id); it != predicates_.end()) {
        PROFILE_QUERY_HIT(predicates_of, id);
        return it->second;
    }
    PROFILE_QUERY(predicates_of, id);
    Predicates predicates = combine(generics_of(id).fingerprint, 0x70726564);
    if (id.krate == kLocalCrate) {
        for (const DefId bound : program_.item(id).bounds) {
            predicates = combine(predicates, type_of(bound));
        }
    }
    predicates_.emplace(id, predicates);
    return predicates;
}

}  // namespace toyc
