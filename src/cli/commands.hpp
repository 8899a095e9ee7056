// The qprof subcommands, each given the words after its name; each returns the exit status
// (input.hpp: 0 ok, 1 failed, 2 partial).
#pragma once

#include <span>
#include <string>

namespace qprof::cli {

int run_summarize(std::span<const std::string> words);
int run_report(std::span<const std::string> words);
int run_diff(std::span<const std::string> words);
int run_merge(std::span<const std::string> words);

}  // namespace qprof::cli
