// How names and keys -- any bytes a program gave -- are written into each text output, so
// that no name can break its format (docs/output-escaping.md):
//
// - Bytes that are not well-formed UTF-8 become U+FFFD, each maximal ill-formed run one.
// - Line-oriented files and tables (counts.txt, keys.txt, the qprof tool's tables) use
//   text_field(): a backslash starts an escape, so every row stays one line with its fields.
// - JSON strings use json_string() (json_text.hpp); folded stacks their own frame rule.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace qprof::detail {

// The next character of `text` at byte `at`: its length in bytes, and whether it is
// well-formed UTF-8 (when not, the length is that of the ill-formed run to replace).
struct Utf8Char {
    std::size_t length;
    bool valid;
};
Utf8Char next_utf8_char(std::string_view text, std::size_t at);

inline constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// `text` with every ill-formed run replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

// One field of a line: valid UTF-8; a backslash as `\\`; tab, line feed and carriage return
// as `\t`, `\n`, `\r`; other control characters (U+0000 to U+001F, U+007F) as `\xHH`; and
// `separator`, when given, as a backslash and itself (`\,` in counts.txt).
std::string text_field(std::string_view text, char separator = '\0');

}  // namespace qprof::detail
