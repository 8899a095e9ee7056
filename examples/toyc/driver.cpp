#include "driver.hpp"

#include <iterator>
#include <qprof/qprof.hpp>

#include "codegen.hpp"
#include "context.hpp"

namespace toyc {
namespace {

void parse_modules(Ctx& ctx) {
    PROFILE_ACTIVITY("parsing");
    for (std::uint32_t module = 0; module < ctx.program().modules.size(); ++module) {
        ctx.parse(module);
    }
}

// Each pass asks for every item, but most answers were computed by an earlier pass or by a
// query of this one: these requests are the cache hits that dominate the trace.
void collect_types(Ctx& ctx) {
    PROFILE_ACTIVITY("type collecting");
    for (std::uint32_t index = 0; index < ctx.program().items.size(); ++index) {
        const DefId id = local_item(index);
        ctx.type_of(id);
        ctx.generics_of(id);
        ctx.predicates_of(id);
    }
}

template <typename Provider>
void for_each_function(const Program& program, Provider provider) {
    for (std::uint32_t index = 0; index < program.items.size(); ++index) {
        if (program.is_function(index)) {
            provider(local_item(index));
        }
    }
}

void analyze_bodies(Ctx& ctx) {
    {
        PROFILE_ACTIVITY("type checking");
        for_each_function(ctx.program(), [&](DefId id) { ctx.typeck(id); });
    }
    {
        PROFILE_ACTIVITY("borrow checking");
        for_each_function(ctx.program(), [&](DefId id) { ctx.borrowck(id); });
    }
    {
        PROFILE_ACTIVITY("MIR optimization");
        for_each_function(ctx.program(), [&](DefId id) { ctx.optimized_mir(id); });
    }
}

// Constant evaluation as an interpreter does it: a dispatch loop over the MIR blocks of the
// const functions (one function in 16), whose phase changes with each block's kind of
// instruction. The phases do not nest in one C++ scope, so they are regions: entering one ends
// the last (qprof::enter_region).
std::uint64_t evaluate_constants(Ctx& ctx) {
    PROFILE_ACTIVITY("constant evaluation");
    constexpr std::uint32_t kConstFunctionEvery = 16;
    constexpr std::uint32_t kRoundsPerBlock = 200;
    static constexpr const char* kPhases[] = {"eval: load", "eval: arithmetic", "eval: branch",
                                              "eval: call"};
    std::uint64_t state = 0;
    for_each_function(ctx.program(), [&](DefId id) {
        if (id.index % kConstFunctionEvery != 0) {
            return;
        }
        for (const std::uint64_t block : ctx.optimized_mir(id).blocks) {
            qprof::enter_region(kPhases[block % std::size(kPhases)]);
            state = churn(state ^ block, kRoundsPerBlock);
        }
    });
    qprof::exit_region();
    return state;
}

}  // namespace

CompileResult compile(const Program& program, std::uint32_t codegen_threads) {
    Ctx ctx{program};
    parse_modules(ctx);
    collect_types(ctx);
    analyze_bodies(ctx);
    const std::uint64_t constants = evaluate_constants(ctx);
    std::uint32_t functions = 0;
    for_each_function(program, [&](DefId) { ++functions; });
    return CompileResult{functions, combine(run_codegen(ctx, codegen_threads), constants)};
}

}  // namespace toyc
