// Names and keys -- any bytes a program gave -- written into each output without breaking it:
// UTF-8 checked, then escaped for a line, a message, HTML or JSON (format.hpp).
#include "format.hpp"

namespace qprof::detail {

void append_hex_escape(std::string& out, unsigned char byte, HexDigits digits) {
    const char* hex = digits == HexDigits::upper ? "0123456789ABCDEF" : "0123456789abcdef";
    out += {'\\', 'x', hex[byte >> 4], hex[byte & 15]};
}

Utf8Char next_utf8_char(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) {
        return {1, true};
    }
    // The second byte's range depends on the lead, so that overlong forms, surrogates and
    // code points past U+10FFFF are ill-formed (Unicode, table 3-7).
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : low;
        high = lead == 0xED ? 0x9F : high;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : low;
        high = lead == 0xF4 ? 0x8F : high;
    } else {
        return {1, false};
    }
    for (std::size_t k = 1; k < length; ++k) {
        if (at + k >= text.size() || byte(at + k) < low || byte(at + k) > high) {
            return {k, false};  // the well-formed start is replaced as one
        }
        low = 0x80;
        high = 0xBF;
    }
    return {length, true};
}

std::string valid_utf8(std::string_view text) {
    std::string valid;
    valid.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const Utf8Char c = next_utf8_char(text, at);
        if (c.valid) {
            valid.append(text, at, c.length);
        } else {
            valid += kReplacement;
        }
        at += c.length;
    }
    return valid;
}

std::string text_field(std::string_view text, char separator) {
    std::string field;
    field.reserve(text.size());
    for (char c : valid_utf8(text)) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\' || (c == separator && c != '\0')) {
            field += '\\';
            field += c;
        } else if (c == '\t' || c == '\n' || c == '\r') {
            field += c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r";
        } else if (is_control_char(byte)) {
            append_hex_escape(field, byte, HexDigits::upper);
        } else {
            field += c;
        }
    }
    return field;
}

std::string shown(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (is_control_char(byte)) {
            append_hex_escape(out, byte, HexDigits::lower);
        } else {
            out += c;
        }
    }
    return out;
}

std::string html_escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                escaped += "&amp;";
                break;
            case '<':
                escaped += "&lt;";
                break;
            case '>':
                escaped += "&gt;";
                break;
            case '"':
                escaped += "&quot;";
                break;
            case '\'':
                escaped += "&#39;";
                break;
            default:
                escaped += c;
        }
    }
    return escaped;
}

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
            quoted += "\\u00";
            quoted += "0123456789abcdef"[byte >> 4];
            quoted += "0123456789abcdef"[byte & 15];
        } else {
            quoted += c;
        }
        at += next.length;
    }
    return quoted + '"';
}

std::string json_optional(std::optional<std::int64_t> value) {
    return value ? std::to_string(*value) : "null";
}

}  // namespace qprof::detail
