// The built-in reporters, listed for the runtime's registry (src/reporter_registry.hpp).
#include "builtin_reporters.hpp"

#include <array>

#include "reporter_registry.hpp"

namespace qprof::detail {

std::span<const BuiltinReporter> builtin_reporters() {
    static constexpr std::array<BuiltinReporter, 8> kBuiltins{{
        {"counts", make_counts_reporter},
        {"html", make_html_reporter},
        {"keys", make_keys_reporter},
        {"folded", make_folded_reporter},
        {"chrome", make_chrome_reporter},
        {"flamegraph", make_flamegraph_reporter},
        {"pprof", make_pprof_reporter},
        {"raw", make_raw_reporter},
    }};
    return kBuiltins;
}

}  // namespace qprof::detail
