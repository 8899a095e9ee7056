// Each -Z flag's value: parsed, checked and applied to SessionOptions, one function per flag
// (flag_values.cpp). The table that names them, the reading of argv and QPROF_FLAGS, and the
// help text are flags.cpp's.
#pragma once

#include <optional>
#include <qprof/session.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::detail {

// One -Z flag as written, and where it came from (for the messages).
struct FlagUse {
    std::string_view name;
    std::optional<std::string_view> value;
    std::string_view origin;  // "" for the command line, " (from QPROF_FLAGS)" otherwise
};

// "qprof: unknown WHAT 'GIVEN' in '-Z FLAG=VALUE'. Did you mean ...? Valid WHATs: ...": the
// message of a value that is none of `choices`.
std::string choice_error(std::string_view what, std::string_view given, const FlagUse& use,
                         const std::vector<std::string>& choices);

// Each throws FlagError naming the flag, what is wrong and what would be right.
void apply_help(SessionOptions& options, const FlagUse& use);
void apply_profile_queries(SessionOptions& options, const FlagUse& use);
void apply_profile_queries_and_keys(SessionOptions& options, const FlagUse& use);
void apply_memory(SessionOptions& options, const FlagUse& use);
void apply_output_dir(SessionOptions& options, const FlagUse& use);
void apply_name(SessionOptions& options, const FlagUse& use);
void apply_inherit(SessionOptions& options, const FlagUse& use);
void apply_clock(SessionOptions& options, const FlagUse& use);
void apply_important(SessionOptions& options, const FlagUse& use);
void apply_folded(SessionOptions& options, const FlagUse& use);
void apply_chrome(SessionOptions& options, const FlagUse& use);
void apply_events(SessionOptions& options, const FlagUse& use);
void apply_colour(SessionOptions& options, const FlagUse& use);

}  // namespace qprof::detail
