// Analysis of function bodies: type checking, MIR building, borrow checking and MIR
// optimisation. borrowck and optimized_mir are the expensive providers.
//
// Unlike the front end's qprof::Query members, these providers keep their own memo tables
// and say what happened with PROFILE_QUERY_HIT and PROFILE_QUERY, as a program with caches
// of its own would be instrumented.
#include <qprof/qprof.hpp>

#include "context.hpp"

namespace toyc {
namespace {

// Per use in a body (typeck) and per MIR block (borrowck, optimisation): the share of the
// work each pass of a real compiler takes, roughly.
constexpr std::uint32_t kTypeckRoundsPerUse = 16;
constexpr std::uint32_t kBorrowckRoundsPerBlock = 300;
constexpr std::uint32_t kOptimizeRoundsPerBlock = 400;
// Callees with bodies this short are inlined, which needs their optimised MIR.
constexpr std::size_t kInlineLimit = 8;

}  // namespace

// Every use in the body asks about the item used: a wide node, answered mostly from cache.
TypeckResults Ctx::typeck(DefId id) {
    if (const auto it = typeck_results_.find(id); it != typeck_results_.end()) {
        PROFILE_QUERY_HIT(typeck, id);
        return it->second;
    }
    PROFILE_QUERY(typeck, id);
    TypeckResults results = combine(type_of(id), predicates_of(id));
    for (const DefId callee : program_.item(id).callees) {
        results = combine(results, type_of(callee));
        const Generics generics = generics_of(callee);
        if (generics.own_params + generics.parent_params > 0) {
            results = combine(results, predicates_of(callee));
        }
        results = churn(results ^ def_span(callee).lo, kTypeckRoundsPerUse);
    }
    typeck_results_.emplace(id, results);
    return results;
}

const Mir& Ctx::mir_built(DefId id) {
    if (const auto it = built_mir_.find(id); it != built_mir_.end()) {
        PROFILE_QUERY_HIT(mir_built, id);
        return it->second;
    }
    PROFILE_QUERY(mir_built, id);
    const TypeckResults results = typeck(id);
    const auto& callees = program_.item(id).callees;
    Mir mir{std::vector<std::uint64_t>(callees.size() + 1), results};
    for (std::size_t block = 0; block < mir.blocks.size(); ++block) {
        mir.blocks[block] = combine(results, block);
        mir.fingerprint = combine(mir.fingerprint, mir.blocks[block]);
    }
    return built_mir_.emplace(id, std::move(mir)).first->second;
}

BorrowckResult Ctx::borrowck(DefId id) {
    if (const auto it = borrowck_results_.find(id); it != borrowck_results_.end()) {
        PROFILE_QUERY_HIT(borrowck, id);
        return it->second;
    }
    PROFILE_QUERY(borrowck, id);
    BorrowckResult result = typeck(id);
    for (const std::uint64_t block : mir_built(id).blocks) {
        result = churn(result ^ block, kBorrowckRoundsPerBlock);
    }
    borrowck_results_.emplace(id, result);
    return result;
}

const Mir& Ctx::optimized_mir(DefId id) {
    if (const auto it = optimized_mir_.find(id); it != optimized_mir_.end()) {
        PROFILE_QUERY_HIT(optimized_mir, id);
        return it->second;
    }
    PROFILE_QUERY(optimized_mir, id);
    const BorrowckResult checked = borrowck(id);
    Mir mir = optimize(id, mir_built(id));
    mir.fingerprint = combine(mir.fingerprint, checked);
    return optimized_mir_.emplace(id, std::move(mir)).first->second;
}

// Only callees defined earlier are inlined, which keeps the recursion free of cycles.
Mir Ctx::optimize(DefId id, const Mir& built) {
    Mir mir = built;
    const auto& callees = program_.item(id).callees;
    for (std::size_t block = 0; block < callees.size(); ++block) {
        const DefId callee = callees[block];
        if (callee.krate == kLocalCrate && callee.index < id.index &&
            program_.is_function(callee.index) &&
            program_.item(callee).callees.size() <= kInlineLimit) {
            mir.blocks[block] = combine(mir.blocks[block], optimized_mir(callee).fingerprint);
        }
    }
    for (std::uint64_t& block : mir.blocks) {
        block = churn(block, kOptimizeRoundsPerBlock);
        mir.fingerprint = combine(mir.fingerprint, block);
    }
    return mir;
}

}  // namespace toyc
