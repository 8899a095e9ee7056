#include "context.hpp"

#include <qprof/qprof.hpp>
#include <stdexcept>

namespace toyc {

// The front-end queries size their own tables; these are sized up front so that rehashing
// does not blur the cost of the providers.
Ctx::Ctx(const Program& program) : program_(program) {
    const std::size_t items = program.items.size() + program.std_items;
    typeck_results_.reserve(items);
    built_mir_.reserve(items);
    borrowck_results_.reserve(items);
    optimized_mir_.reserve(items);
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
