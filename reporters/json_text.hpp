// JSON as the reporters write it: strings escaped for any text, and integers and integer
// columns formatted into a buffer, since reports write millions of them.
#pragma once

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

namespace qprof::detail {

// `text` quoted, with control characters, DEL and '<' as \u00XX, so that it is valid JSON
// even inside an HTML <script> element, and each ill-formed UTF-8 run as \ufffd (U+FFFD).
std::string json_string(std::string_view text);

template <typename Integer>
void append_integer(std::string& out, Integer value) {
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

// `"name":[v,v,...]` with value_of(0) ... value_of(count - 1).
template <typename ValueOf>
void append_integer_column(std::string& out, std::string_view name, std::size_t count,
                           ValueOf value_of) {
    out += '"';
    out += name;
    out += "\":[";
    for (std::size_t i = 0; i < count; ++i) {
        if (i > 0) {
            out += ',';
        }
        append_integer(out, value_of(i));
    }
    out += ']';
}

}  // namespace qprof::detail
