#include "json_text.hpp"

#include <cstdio>

#include "text.hpp"
#include "text_escape.hpp"

namespace qprof::detail {

std::string json_string(std::string_view text) {
    std::string quoted = "\"";
    quoted.reserve(text.size() + 2);
    for (std::size_t at = 0; at < text.size();) {
        const Utf8Char next = next_utf8_char(text, at);
        const char c = text[at];
        const auto byte = static_cast<unsigned char>(c);
        if (!next.valid) {
            quoted += "\\ufffd";
        } else if (next.length > 1) {
            quoted.append(text, at, next.length);
        } else if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (is_control_char(byte) || c == '<') {  // '<': no text closes a <script>
            char code[8];
            std::snprintf(code, sizeof code, "\\u%04x", byte);
            quoted += code;
        } else {
            quoted += c;
        }
        at += next.length;
    }
    return quoted + '"';
}

}  // namespace qprof::detail
