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

// A control character (U+0000 to U+001F, U+007F): no message or line-oriented field holds one
// raw, where it could move the terminal's cursor or break the line.
constexpr bool is_control_char(unsigned char byte) { return byte < 0x20 || byte == 0x7f; }
enum class HexDigits { lower, upper };
// Appends a control character as `\x` and two hex digits: upper-case in the fields of text
// reports (text_field, reporters/text_escape.hpp), lower-case in messages (shown).
void append_hex_escape(std::string& out, unsigned char byte, HexDigits digits);
// Text from the user as a message quotes it: control characters (an escape sequence, say) as
// `\xhh`, never sent raw to the terminal; all else as it is.
std::string shown(std::string_view text);

// The candidate closest to `given` by edit distance, if it is close enough to be a likely typo.
std::optional<std::string> nearest_match(std::string_view given,
                                         const std::vector<std::string>& candidates);

}  // namespace qprof::detail
