// The query context: every provider of the front end and of analysis, each memoised in a
// table of its own and instrumented as a qprof user would (a hit on the table's answer, a
// timed scope around the provider's body otherwise).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "def_id.hpp"
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

class Ctx {
  public:
    explicit Ctx(const Program& program);
    const Program& program() const { return program_; }

    // The front end (collect.cpp).
    const ParsedModule& parse(std::uint32_t module);
    Span def_span(DefId id);
    Ty type_of(DefId id);
    const Generics& generics_of(DefId id);
    Predicates predicates_of(DefId id);

    // Analysis of function bodies (analysis.cpp).
    TypeckResults typeck(DefId id);
    const Mir& mir_built(DefId id);
    BorrowckResult borrowck(DefId id);
    const Mir& optimized_mir(DefId id);

    // For the codegen threads, which only read: analysis has filled these tables by then,
    // and an unordered_map may be read from several threads while nobody writes it.
    Ty cached_type_of(DefId id) const;
    const Mir& cached_optimized_mir(DefId id) const;

  private:
    template <typename Value>
    using Memo = std::unordered_map<DefId, Value, DefIdHash>;

    Ty local_type_of(DefId id);
    Mir optimize(DefId id, const Mir& built);

    const Program& program_;
    std::unordered_map<std::uint32_t, ParsedModule> parsed_;
    Memo<Span> spans_;
    Memo<Ty> types_;
    Memo<Generics> generics_;
    Memo<Predicates> predicates_;
    Memo<TypeckResults> typeck_results_;
    Memo<Mir> built_mir_;
    Memo<BorrowckResult> borrowck_results_;
    Memo<Mir> optimized_mir_;
};

}  // namespace toyc
