// Small string helpers for the flag parser and the tool's arguments. How numbers and names are
// written out is format.hpp's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::detail {

std::vector<std::string> split(std::string_view text, char separator);
std::string join(const std::vector<std::string>& parts, std::string_view separator);

// The candidate closest to `given` by edit distance, if it is close enough to be a likely typo.
std::optional<std::string> nearest_match(std::string_view given,
                                         const std::vector<std::string>& candidates);

}  // namespace qprof::detail
