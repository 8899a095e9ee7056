// One home for how qprof writes numbers and text: durations, bytes, shares, counts, JSON,
// escaping for each output, and the qprof tool's text tables. The runtime, the reporters and
// the tool all include this header; nothing else formats these (docs/architecture.md).
//
//   duration_text(12'345)           -> "12.3 µs"     a page: the unit follows the value
//   ms_text(1'234'567'891)          -> "1,234.568"   the tool's tables: always ms, 3 decimals
//   share_text(5, 40)               -> "12.5 %"
//   count_text(1, "event", "events") -> "1 event"
//   TextTable table{{{"provider", TextTable::Align::left}, {"self ms"}}};
//
// Where two styles of the same quantity exist they differ on purpose, and each says who uses
// it. Sources: src/format/numbers.cpp, src/format/escape.cpp, src/format/table.cpp.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::detail {

// ---- Counts -------------------------------------------------------------------------------

std::string with_thousands(std::uint64_t value);                    // 1234567 -> "1,234,567"
void append_with_thousands(std::string& out, std::uint64_t value);  // the same, into a buffer
std::string signed_with_thousands(std::int64_t value);              // -1234567 -> "-1,234,567"
std::string signed_count_text(std::int64_t value);                  // a change: "+1,234", "-5", "0"
// `count` with thousands and the noun that fits it: "1 event", "1,234 events".
std::string count_text(std::uint64_t count, std::string_view singular, std::string_view plural);

// ---- Decimals -----------------------------------------------------------------------------

// `value` base units as a number of units of 10^unit_digits base units, rounded half away from
// zero to `decimals` (at most unit_digits, at most 18) decimals, computed on integers so that
// it is exact: append_decimal(out, 1'234'567, 6, 3, true) appends "1.235". A negative value
// that rounds to zero has no sign. With `thousands`, the integer part is grouped by commas.
// Inline, so that constant units become multiplications: Chrome's trace writes millions.
inline void append_decimal(std::string& out, std::int64_t value, int unit_digits, int decimals,
                           bool thousands) {
    constexpr std::uint64_t kPowers[] = {1,
                                         10,
                                         100,
                                         1'000,
                                         10'000,
                                         100'000,
                                         1'000'000,
                                         10'000'000,
                                         100'000'000,
                                         1'000'000'000,
                                         10'000'000'000,
                                         100'000'000'000,
                                         1'000'000'000'000,
                                         10'000'000'000'000,
                                         100'000'000'000'000,
                                         1'000'000'000'000'000,
                                         10'000'000'000'000'000,
                                         100'000'000'000'000'000,
                                         1'000'000'000'000'000'000};
    const std::uint64_t magnitude =
        value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
    const std::uint64_t step = kPowers[unit_digits - decimals];
    const std::uint64_t steps = (magnitude + step / 2) / step;  // fits: magnitude <= 2^63
    if (value < 0 && steps > 0) {
        out += '-';
    }
    char text[48];  // 20 digits, a point, 18 decimals: written with one append
    char* end = text;
    const std::uint64_t whole = steps / kPowers[decimals];
    if (thousands) {
        append_with_thousands(out, whole);
    } else {
        end = std::to_chars(end, text + sizeof text, whole).ptr;
    }
    if (decimals > 0) {
        *end++ = '.';
        std::uint64_t rest = steps % kPowers[decimals];
        for (int i = decimals - 1; i >= 0; --i, rest /= 10) {
            end[i] = static_cast<char>('0' + rest % 10);
        }
        end += decimals;
    }
    // By pointer and length: GCC 12 warns (-Wrestrict, falsely) on append's iterator pair.
    out.append(text, static_cast<std::size_t>(end - text));
}

// `value` with `decimals` decimals, as printf's "%.*f" rounds a double: "1.5" of 1.5 and 1.
std::string decimal_text(double value, int decimals);
// Up to 3 decimals, trailing zeros dropped: "57.143", "0.5", "1"; -0 as "0". Not a number nor
// finite as "null", so that it is always a JSON value. JSON numbers, and numbers a user gave.
std::string number_text(double value);

// ---- Durations ----------------------------------------------------------------------------

// The pages (HTML report, flame graph): the unit follows the value, 3 significant digits or
// so: "850 ns", "12.3 µs", "4.56 ms", "1.234 s".
std::string duration_text(std::int64_t ns);
// The tool's tables and messages: milliseconds always, so that a column compares at a glance,
// with thousands and `decimals` decimals, no unit: "1,234.568"; the page's "where the time
// went" lists take one decimal and add " ms".
std::string ms_text(std::int64_t ns, int decimals = 3);
std::string signed_ms_text(std::int64_t ns);  // a change: "+1.000", "-0.500", "0.000"
// Seconds without thousands (the line-oriented files, where a comma separates fields):
// seconds_text(1'234'567'891) -> "1.235"; keys.txt takes 6 decimals.
std::string seconds_text(std::int64_t ns, int decimals = 3);
// Microseconds with three decimals, exactly (Chrome's trace format): 1234567 -> "1234.567".
inline void append_microseconds(std::string& out, std::int64_t ns) {
    append_decimal(out, ns, 3, 3, false);
}

// ---- Bytes --------------------------------------------------------------------------------

// The pages: "512 B", "1.5 KiB", "2.25 MiB", "-1.000 GiB".
std::string bytes_text(std::int64_t bytes);
// The tool's tables, in a column titled in that unit, one decimal: 1536 -> "1.5".
std::string kib_text(std::int64_t bytes);
std::string signed_kib_text(std::int64_t bytes);  // a change: "+1.5", "-0.5"
std::string mib_text(std::uint64_t bytes);        // 1572864 -> "1.5"

// ---- Shares -------------------------------------------------------------------------------

// 100 * part / whole; 0 when whole is not positive.
double percent_of(std::int64_t part, std::int64_t whole);
// A share with one decimal, "<0.1 %" below 0.05 % (so that a share shown is never "0.0 %" of
// something that took time): the pages' labels, and the tool where a share is never 0.
std::string share_text(std::int64_t part, std::int64_t whole);
// The tool's share columns: as share_text, but a part of nothing is "0.0 %".
std::string column_share_text(std::int64_t part, std::int64_t whole);
// A rate of counts (hits of queries) with one decimal, "–" (an en dash) of nothing: "12.3 %".
std::string rate_text(std::uint64_t part, std::uint64_t whole);
// A change in percent with its sign, "—" (an em dash) when there is none: "+12.3 %", "0.0 %".
std::string signed_percent_text(std::optional<double> percent);

// ---- Escaping -----------------------------------------------------------------------------
// How names and keys -- any bytes a program gave -- are written into each text output, so
// that no name can break its format (docs/output-escaping.md):
// - Bytes that are not well-formed UTF-8 become U+FFFD, each maximal ill-formed run one.
// - Line-oriented files and tables (counts.txt, keys.txt, the qprof tool's tables) use
//   text_field(): a backslash starts an escape, so every row stays one line with its fields.
// - JSON strings use json_string(); HTML html_escape(); folded stacks their own frame rule;
//   messages shown().

// A control character (U+0000 to U+001F, U+007F): no message or line-oriented field holds one
// raw, where it could move the terminal's cursor or break the line.
constexpr bool is_control_char(unsigned char byte) { return byte < 0x20 || byte == 0x7f; }
enum class HexDigits { lower, upper };
// Appends a control character as `\x` and two hex digits: upper-case in the fields of text
// reports (text_field), lower-case in messages (shown).
void append_hex_escape(std::string& out, unsigned char byte, HexDigits digits);

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
// Text from the user as a message quotes it: control characters (an escape sequence, say) as
// `\xhh`, never sent raw to the terminal; all else as it is.
std::string shown(std::string_view text);
// For HTML text and attribute values: & < > " ' as entities.
std::string html_escape(std::string_view text);

// ---- JSON ---------------------------------------------------------------------------------
// Integers and integer columns are formatted into a buffer, since reports write millions.

// `text` quoted, with control characters, DEL and '<' as \u00XX, so that it is valid JSON
// even inside an HTML <script> element, and each ill-formed UTF-8 run as \ufffd (U+FFFD).
std::string json_string(std::string_view text);
// The value, or null.
std::string json_optional(std::optional<std::int64_t> value);

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

// ---- Text tables (the qprof tool) ---------------------------------------------------------

std::size_t display_width(std::string_view utf8_text);  // columns, not bytes
// `text` padded with spaces to `width` display columns (and one space at least).
std::string pad(std::string_view text, std::size_t width);

// Columns padded to their widest cell and separated by two spaces; no line ends in spaces.
class TextTable {
  public:
    enum class Align { left, right };
    struct Column {
        std::string title;
        Align align = Align::right;
    };

    explicit TextTable(std::vector<Column> columns);
    void add_row(std::vector<std::string> cells);  // one cell per column
    void write(std::ostream& out) const;           // the titles, then the rows

  private:
    std::vector<Column> columns_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace qprof::detail
