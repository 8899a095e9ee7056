// The query context: every provider of the front end and of analysis, memoised and profiled
// in the two ways qprof offers.
//
//   - The front end (collect.cpp) declares its queries as qprof::Query members, which memoise
//     their provider and record each hit and miss themselves: no profiling code at all.
//   - Analysis (analysis.cpp) and codegen keep hand-written memo tables instrumented with
//     PROFILE_QUERY and PROFILE_QUERY_HIT, as a program that already has its own caches would.
#pragma once

#include <cstdint>
#include <memory>
#include <qprof/key.hpp>
#include <qprof/query.hpp>
#include <unordered_map>
#include <vector>

#include "def_id.hpp"
#include "hashing.hpp"
#include "program.hpp"

namespace toyc {

// Results are fingerprints where a real compiler would hold interned structures: toyc only
// needs them to be deterministic and to depend on everything they were computed from.
using Ty = std::uint64_t;
using Predicates = std::uint64_t;
using TypeckResults = std::uint64_t;
using BorrowckResult = std::uint64_t;

struct Span {
    std::uint32_t lo;
    std::uint32_t hi;
};

struct ParsedModule {
    std::vector<std::uint32_t> item_offsets;  // one per item, plus the end of the module
    std::uint64_t fingerprint;
};

struct Generics {
    std::uint32_t own_params;
    std::uint32_t parent_params;  // inherited from the enclosing item, as for methods
    std::uint64_t fingerprint;
};

struct Mir {
    std::vector<std::uint64_t> blocks;
    std::uint64_t fingerprint;
};

// A hand-written memo table: qprof's KeyHash and KeyEqual hash and compare DefId field by field.
template <typename Value>
using DefIdMap = std::unordered_map<DefId, Value, qprof::KeyHash<DefId>, qprof::KeyEqual<DefId>>;

class Ctx {
  public:
    explicit Ctx(const Program& program);
    const Program& program() const { return program_; }

    // The front end, asked as ctx.type_of(id). Mutable because a Query is a thread-safe cache:
    // the codegen threads, which are given a const Ctx, ask type_of too.
    mutable qprof::Query<std::uint32_t, std::shared_ptr<const ParsedModule>> parse{
        "parse", [this](std::uint32_t module) { return provide_parse(module); }};
    mutable qprof::Query<DefId, Span> def_span{
        "def_span", [this](const DefId& id) { return provide_def_span(id); }};
    mutable qprof::Query<DefId, Ty> type_of{
        "type_of", [this](const DefId& id) { return provide_type_of(id); }};
    mutable qprof::Query<DefId, Generics> generics_of{
        "generics_of", [this](const DefId& id) { return provide_generics_of(id); }};
    mutable qprof::Query<DefId, Predicates> predicates_of{
        "predicates_of", [this](const DefId& id) { return provide_predicates_of(id); }};

    // Analysis of function bodies (analysis.cpp).
    TypeckResults typeck(DefId id);
    const Mir& mir_built(DefId id);
    BorrowckResult borrowck(DefId id);
    const Mir& optimized_mir(DefId id);

    // For the codegen threads, which only read: analysis has filled this table by then, and
    // an unordered_map may be read from several threads while nobody writes it.
    const Mir& cached_optimized_mir(DefId id) const;

  private:
    // The providers of the front-end queries (collect.cpp).
    std::shared_ptr<const ParsedModule> provide_parse(std::uint32_t module);
    Span provide_def_span(DefId id);
    Ty provide_type_of(DefId id);
    Generics provide_generics_of(DefId id);
    Predicates provide_predicates_of(DefId id);

    Mir optimize(DefId id, const Mir& built);

    const Program& program_;
    DefIdMap<TypeckResults> typeck_results_;
    DefIdMap<Mir> built_mir_;
    DefIdMap<BorrowckResult> borrowck_results_;
    DefIdMap<Mir> optimized_mir_;
};

}  // namespace toyc
