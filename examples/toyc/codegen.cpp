#include "codegen.hpp"

#include <cstdio>
#include <qprof/qprof.hpp>
#include <thread>
#include <vector>

namespace toyc {
namespace {

// Instruction selection and emission dominate a real compiler's time; so they do here.
constexpr std::uint32_t kCodegenRoundsPerBlock = 800;
// The machine code a MIR block and a call become, as a compiler's sizes would be counted.
constexpr std::uint64_t kBytesPerBlock = 48;
constexpr std::uint64_t kBytesPerCall = 12;
// How often a unit reports its symbol cache (qprof::counter): a curve, not a flood.
constexpr std::size_t kCounterEvery = 32;

std::vector<DefId> functions_of(const Program& program) {
    std::vector<DefId> functions;
    for (std::uint32_t index = 0; index < program.items.size(); ++index) {
        if (program.is_function(index)) {
            functions.push_back(local_item(index));
        }
    }
    return functions;
}

// Functions are dealt out round-robin, which balances big and small bodies between threads.
void codegen_share(const Ctx& ctx, const std::vector<DefId>& functions,
                   std::vector<std::uint64_t>& objects, std::uint32_t first, std::uint32_t stride) {
    CodegenUnit unit{ctx};
    for (std::size_t index = first; index < functions.size(); index += stride) {
        objects[index] = unit.codegen(functions[index]);
        if ((index / stride) % kCounterEvery == 0) {
            PROFILE_COUNTER("cached symbols", static_cast<std::int64_t>(unit.cached_symbols()));
        }
    }
    PROFILE_COUNTER("cached symbols", static_cast<std::int64_t>(unit.cached_symbols()));
    // Each unit is one object file, as rustc's codegen units are.
    PROFILE_SIZE("object file", unit.object_bytes());
}

}  // namespace

// Not memoised: each function is generated exactly once, but it is still a provider run. Code
// generation's providers carry the colour class "codegen", so every report colours them apart.
std::uint64_t CodegenUnit::codegen(DefId id) {
    PROFILE_QUERY_CLASS(codegen, "codegen", id);
    const Mir& mir = ctx_.cached_optimized_mir(id);
    std::uint64_t object = combine(mir.fingerprint, fingerprint(symbol_name(id)));
    for (const std::uint64_t block : mir.blocks) {
        object = churn(object ^ block, kCodegenRoundsPerBlock);
    }
    const auto& callees = ctx_.program().item(id).callees;
    for (const DefId callee : callees) {
        object = combine(object, fingerprint(symbol_name(callee)));
    }
    const std::uint64_t bytes = mir.blocks.size() * kBytesPerBlock + callees.size() * kBytesPerCall;
    PROFILE_SIZE("function code", bytes);
    object_bytes_ += bytes;
    return object;
}

const std::string& CodegenUnit::symbol_name(DefId id) {
    if (const auto it = symbols_.find(id); it != symbols_.end()) {
        PROFILE_QUERY_HIT(symbol_name, id);
        return it->second;
    }
    PROFILE_QUERY_CLASS(symbol_name, "codegen", id);
    // Mangled like a Rust legacy symbol: the path, then a hash of the item's type.
    const std::string item = "item" + std::to_string(id.index);
    char hash[17];
    // type_of is a qprof::Query, safe to ask from every codegen thread; a hit by now.
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(ctx_.type_of(id)));
    std::string name = (id.krate == kLocalCrate ? "_ZN4toyc" : "_ZN3std") +
                       std::to_string(item.size()) + item + "17h" + hash + "E";
    return symbols_.emplace(id, std::move(name)).first->second;
}

std::uint64_t run_codegen(const Ctx& ctx, std::uint32_t threads) {
    PROFILE_ACTIVITY("code generation");
    const std::vector<DefId> functions = functions_of(ctx.program());
    std::vector<std::uint64_t> objects(functions.size());
    if (threads <= 1) {
        codegen_share(ctx, functions, objects, 0, 1);
    } else {
        std::vector<std::thread> workers;
        for (std::uint32_t worker = 0; worker < threads; ++worker) {
            workers.emplace_back([&, worker] {
                qprof::name_this_thread("codegen worker " + std::to_string(worker + 1));
                // One unit per worker, told apart in every report by its name.
                PROFILE_ACTIVITY_ARG("codegen unit", "toyc.cgu." + std::to_string(worker));
                codegen_share(ctx, functions, objects, worker, threads);
            });
        }
        // The main thread only waits here: reports must not count this as its work.
        PROFILE_WAIT("join workers");
        for (std::thread& thread : workers) {
            thread.join();
        }
    }
    std::uint64_t checksum = functions.size();
    for (const std::uint64_t object : objects) {
        checksum = combine(checksum, object);
    }
    return checksum;
}

}  // namespace toyc
