// Factories of the built-in reporters, listed explicitly by builtin_reporters.cpp (static
// self-registration inside a static library can be dropped by the linker).
#pragma once

#include <memory>
#include <qprof/reporter.hpp>

namespace qprof::detail {

std::unique_ptr<Reporter> make_chrome_reporter();
std::unique_ptr<Reporter> make_counts_reporter();
std::unique_ptr<Reporter> make_flamegraph_reporter();
std::unique_ptr<Reporter> make_folded_reporter();
std::unique_ptr<Reporter> make_html_reporter();
std::unique_ptr<Reporter> make_keys_reporter();
std::unique_ptr<Reporter> make_pprof_reporter();
std::unique_ptr<Reporter> make_raw_reporter();

}  // namespace qprof::detail
