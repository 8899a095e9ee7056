// Code generation, split across threads the way a compiler splits codegen units.
#pragma once

#include <cstdint>
#include <string>

#include "context.hpp"

namespace toyc {

// One thread's share of the functions. Symbol names are memoised per unit, so the threads
// share nothing they write and the result does not depend on how the work was split.
class CodegenUnit {
  public:
    explicit CodegenUnit(const Ctx& ctx) : ctx_(ctx) {}

    // Returns the fingerprint of the function's object code.
    std::uint64_t codegen(DefId id);
    // The bytes of object code generated so far, and the symbol names cached.
    std::uint64_t object_bytes() const { return object_bytes_; }
    std::size_t cached_symbols() const { return symbols_.size(); }

  private:
    const std::string& symbol_name(DefId id);

    const Ctx& ctx_;
    DefIdMap<std::string> symbols_;
    std::uint64_t object_bytes_ = 0;
};

// Generates code for every function with `threads` threads (1: on the calling thread) and
// returns the checksum of the object code, the same for any number of threads.
std::uint64_t run_codegen(const Ctx& ctx, std::uint32_t threads);

}  // namespace toyc
