#include "context.hpp"

#include <qprof/qprof.hpp>
#include <stdexcept>

namespace toyc {

Ctx::Ctx(const Program& program) : program_(program) {
    // Sized up front so that rehashing does not blur the cost of the providers.
    const std::size_t items = program.items.size() + program.std_items;
    parsed_.reserve(program.modules.size());
    spans_.reserve(items);
    types_.reserve(items);
    generics_.reserve(items);
    predicates_.reserve(items);
    typeck_results_.reserve(items);
    built_mir_.reserve(items);
    borrowck_results_.reserve(items);
    optimized_mir_.reserve(items);
}

Ty Ctx::cached_type_of(DefId id) const {
    const auto it = types_.find(id);
    if (it == types_.end()) {
        throw std::logic_error("toyc: type_of was not computed before codegen");
    }
    PROFILE_QUERY_HIT(type_of, id);
    return it->second;
}

const Mir& Ctx::cached_optimized_mir(DefId id) const {
    const auto it = optimized_mir_.find(id);
    if (it == optimized_mir_.end()) {
        throw std::logic_error("toyc: optimized_mir was not computed before codegen");
    }
    PROFILE_QUERY_HIT(optimized_mir, id);
    return it->second;
}

}  // namespace toyc
