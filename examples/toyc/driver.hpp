// The compiler's passes, in the order a real compiler runs them.
#pragma once

#include <cstdint>

#include "program.hpp"

namespace toyc {

struct CompileResult {
    std::uint32_t functions;
    std::uint64_t checksum;  // of the generated code
};

CompileResult compile(const Program& program, std::uint32_t codegen_threads);

}  // namespace toyc
