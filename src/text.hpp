// Small text helpers shared by the flag parser, the session and the reporters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::detail {

std::vector<std::string> split(std::string_view text, char separator);
std::string join(const std::vector<std::string>& parts, std::string_view separator);
// `text` padded with spaces to `width` (and one space at least).
std::string pad(std::string_view text, std::size_t width);
// 1234567 -> "1,234,567"
std::string with_thousands(std::uint64_t value);
// -1234567 -> "-1,234,567"
std::string signed_with_thousands(std::int64_t value);

// The candidate closest to `given` by edit distance, if it is close enough to be a likely typo.
std::optional<std::string> nearest_match(std::string_view given,
                                         const std::vector<std::string>& candidates);

}  // namespace qprof::detail
