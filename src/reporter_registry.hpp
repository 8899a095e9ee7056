// The runtime's side of the reporter registry (qprof/reporter.hpp): the runtime names no
// reporter, the layer above lists the built-in ones (docs/architecture.md, "The layers, one
// way").
#pragma once

#include <memory>
#include <qprof/reporter.hpp>
#include <span>
#include <string_view>

namespace qprof::detail {

struct BuiltinReporter {
    std::string_view name;
    std::unique_ptr<Reporter> (*make)();
};

// The built-in reporters, in the order -Z help lists them. Declared here, defined by the
// reporters layer (reporters/builtin_reporters.cpp), which libqprof takes whole: a list the
// registry reads rather than self-registration, which a static library can drop.
std::span<const BuiltinReporter> builtin_reporters();

}  // namespace qprof::detail
