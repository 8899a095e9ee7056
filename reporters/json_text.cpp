#include "json_text.hpp"

#include <cstdio>

namespace qprof::detail {

std::string json_string(std::string_view text) {
    std::string quoted = "\"";
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (byte < 0x20 || c == '<') {  // '<' so that no text can close the <script>
            char code[8];
            std::snprintf(code, sizeof code, "\\u%04x", byte);
            quoted += code;
        } else {
            quoted += c;
        }
    }
    return quoted + '"';
}

}  // namespace qprof::detail
