// The formatting module (src/format.hpp): each function at 0, negative values, unit boundaries,
// the extremes of its type and, for doubles, values that are not numbers. Escaping of awkward
// names in whole reports is text_escape_test.cpp's.
#include "format.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <sstream>

namespace format = qprof::detail;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::string decimal(std::int64_t value, int unit_digits, int decimals, bool thousands) {
    std::string text = "<";  // appends, keeping what was there
    format::append_decimal(text, value, unit_digits, decimals, thousands);
    return text;
}

}  // namespace

TEST_CASE("counts: thousands, signs and nouns") {
    CHECK(format::with_thousands(0) == "0");
    CHECK(format::with_thousands(999) == "999");
    CHECK(format::with_thousands(1'000) == "1,000");
    CHECK(format::with_thousands(std::numeric_limits<std::uint64_t>::max()) ==
          "18,446,744,073,709,551,615");
    CHECK(format::signed_with_thousands(0) == "0");
    CHECK(format::signed_with_thousands(-1'234'567) == "-1,234,567");
    CHECK(format::signed_with_thousands(kMin) == "-9,223,372,036,854,775,808");
    CHECK(format::signed_count_text(0) == "0");
    CHECK(format::signed_count_text(1'234) == "+1,234");
    CHECK(format::signed_count_text(-5) == "-5");
    CHECK(format::count_text(0, "event", "events") == "0 events");
    CHECK(format::count_text(1, "event", "events") == "1 event");
    CHECK(format::count_text(1'234, "query", "queries") == "1,234 queries");
}

TEST_CASE("append_decimal: exact, rounded half away from zero, no negative zero") {
    CHECK(decimal(1'234'567, 6, 3, true) == "<1.235");
    CHECK(decimal(1'234'500, 6, 3, true) == "<1.235");
    CHECK(decimal(1'234'499, 6, 3, true) == "<1.234");
    CHECK(decimal(-1'234'500, 6, 3, true) == "<-1.235");
    CHECK(decimal(-499, 6, 3, true) == "<0.000");
    CHECK(decimal(-500, 6, 3, true) == "<-0.001");
    CHECK(decimal(0, 6, 0, true) == "<0");
    CHECK(decimal(1'500'000, 6, 0, true) == "<2");
    CHECK(decimal(1'234'567'891'234, 6, 1, true) == "<1,234,567.9");
    CHECK(decimal(1'234'567'891'234, 6, 1, false) == "<1234567.9");
    CHECK(decimal(-7, 3, 3, false) == "<-0.007");  // decimals == unit: every digit, no rounding
    CHECK(decimal(kMin, 6, 3, true) == "<-9,223,372,036,854.776");
    CHECK(decimal(kMax, 9, 9, false) == "<9223372036.854775807");
}

TEST_CASE("decimal_text and number_text") {
    CHECK(format::decimal_text(1.25, 1) == "1.2");  // printf: an exact tie to even
    CHECK(format::decimal_text(-0.04, 1) == "-0.0");
    CHECK(format::decimal_text(1e15, 0) == "1000000000000000");
    CHECK(format::number_text(0) == "0");
    CHECK(format::number_text(-0.0004) == "0");  // never "-0"
    CHECK(format::number_text(1) == "1");
    CHECK(format::number_text(0.5) == "0.5");
    CHECK(format::number_text(400.0 / 7) == "57.143");
    CHECK(format::number_text(-1.5) == "-1.5");
    CHECK(format::number_text(1e20) == "100000000000000000000");
    CHECK(format::number_text(1e300).size() == 301);  // fixed notation, never an exponent
    CHECK(format::number_text(std::numeric_limits<double>::quiet_NaN()) == "null");
    CHECK(format::number_text(std::numeric_limits<double>::infinity()) == "null");
    CHECK(format::number_text(-std::numeric_limits<double>::infinity()) == "null");
}

TEST_CASE("duration_text: the pages' adaptive units") {
    CHECK(format::duration_text(0) == "0 ns");
    CHECK(format::duration_text(999) == "999 ns");
    CHECK(format::duration_text(1'000) == "1.0 \u00b5s");
    CHECK(format::duration_text(12'345) == "12.3 \u00b5s");
    CHECK(format::duration_text(999'949) == "999.9 \u00b5s");
    // The unit is chosen after rounding, as reporters/viewer_common/format.js does too.
    CHECK(format::duration_text(999'950) == "1.00 ms");
    CHECK(format::duration_text(1'000'000) == "1.00 ms");
    CHECK(format::duration_text(4'560'000) == "4.56 ms");
    CHECK(format::duration_text(999'999'999) == "1.000 s");
    CHECK(format::duration_text(1'000'000'000) == "1.000 s");
    CHECK(format::duration_text(kMax) == "9223372036.855 s");
    CHECK(format::duration_text(-5) == "-5 ns");
    CHECK(format::duration_text(-2'000'000) == "-2.00 ms");
}

TEST_CASE("ms_text, signed_ms_text: the tool's fixed milliseconds") {
    CHECK(format::ms_text(0) == "0.000");
    CHECK(format::ms_text(1'234'567'891) == "1,234.568");
    CHECK(format::ms_text(-2'500'000) == "-2.500");
    CHECK(format::ms_text(-400) == "0.000");  // no "-0.000"
    CHECK(format::ms_text(999'999) == "1.000");
    CHECK(format::ms_text(kMin) == "-9,223,372,036,854.776");
    // The page's "where the time went" lists: one decimal.
    CHECK(format::ms_text(1'801'150'000, 1) == "1,801.2");
    CHECK(format::ms_text(49'999, 1) == "0.0");
    CHECK(format::ms_text(50'000, 1) == "0.1");
    CHECK(format::signed_ms_text(0) == "0.000");
    CHECK(format::signed_ms_text(1'000'000) == "+1.000");
    CHECK(format::signed_ms_text(-500'000) == "-0.500");
    CHECK(format::signed_ms_text(-400) == "0.000");
}

TEST_CASE("seconds_text and append_microseconds: no thousands, exact") {
    CHECK(format::seconds_text(0) == "0.000");
    CHECK(format::seconds_text(1'234'567'891) == "1.235");
    CHECK(format::seconds_text(4'500'000) == "0.005");  // printf on the double said 0.004
    CHECK(format::seconds_text(12'345'678'901'234) == "12345.679");
    CHECK(format::seconds_text(500, 6) == "0.000001");
    CHECK(format::seconds_text(499, 6) == "0.000000");
    std::string out;
    format::append_microseconds(out, 1'234'567);
    out += ',';
    format::append_microseconds(out, 999);
    out += ',';
    format::append_microseconds(out, -1);
    out += ',';
    format::append_microseconds(out, 0);
    CHECK(out == "1234.567,0.999,-0.001,0.000");
}

TEST_CASE("bytes: the pages' adaptive units and the tool's KiB and MiB") {
    CHECK(format::bytes_text(0) == "0 B");
    CHECK(format::bytes_text(1'023) == "1023 B");
    CHECK(format::bytes_text(1'024) == "1.0 KiB");
    CHECK(format::bytes_text(1'536) == "1.5 KiB");
    CHECK(format::bytes_text(1'048'575) == "1.00 MiB");  // the unit after rounding, as JS
    CHECK(format::bytes_text(1'048'576) == "1.00 MiB");
    CHECK(format::bytes_text(2'359'296) == "2.25 MiB");
    CHECK(format::bytes_text(-1'073'741'824) == "-1.000 GiB");
    CHECK(format::bytes_text(-512) == "-512 B");
    CHECK(format::bytes_text(kMin) == "-8589934592.000 GiB");
    CHECK(format::kib_text(0) == "0.0");
    CHECK(format::kib_text(1'536) == "1.5");
    CHECK(format::kib_text(-512) == "-0.5");
    CHECK(format::kib_text(-1) == "-0.0");  // a change of a byte keeps its sign
    CHECK(format::signed_kib_text(1'536) == "+1.5");
    CHECK(format::signed_kib_text(0) == "0.0");
    CHECK(format::signed_kib_text(-1'536) == "-1.5");
    CHECK(format::mib_text(0) == "0.0");
    CHECK(format::mib_text(1'572'864) == "1.5");
}

TEST_CASE("shares: of time, of counts, and changes") {
    CHECK(format::percent_of(1, 4) == 25.0);
    CHECK(format::percent_of(-1, 4) == -25.0);
    CHECK(format::percent_of(1, 0) == 0.0);
    CHECK(format::percent_of(1, -4) == 0.0);
    CHECK(format::share_text(5, 40) == "12.5 %");
    CHECK(format::share_text(100, 100) == "100.0 %");
    CHECK(format::share_text(1, 2'000) == "0.1 %");  // 0.05 %: shown
    CHECK(format::share_text(1, 2'001) == "<0.1 %");
    CHECK(format::share_text(0, 100) == "<0.1 %");
    CHECK(format::share_text(1, 0) == "<0.1 %");
    CHECK(format::column_share_text(0, 100) == "0.0 %");
    CHECK(format::column_share_text(0, 0) == "0.0 %");
    CHECK(format::column_share_text(1, 1'000'000) == "<0.1 %");
    CHECK(format::column_share_text(5, 40) == "12.5 %");
    CHECK(format::rate_text(0, 0) == "\u2013");
    CHECK(format::rate_text(0, 5) == "0.0 %");
    CHECK(format::rate_text(1, 3) == "33.3 %");
    CHECK(format::rate_text(3, 3) == "100.0 %");
    CHECK(format::signed_percent_text(std::nullopt) == "\u2014");
    CHECK(format::signed_percent_text(0.0) == "0.0 %");
    CHECK(format::signed_percent_text(12.34) == "+12.3 %");
    CHECK(format::signed_percent_text(-12.36) == "-12.4 %");
    CHECK(format::signed_percent_text(0.04) == "+0.0 %");
}

TEST_CASE("escaping: HTML, messages, JSON") {
    CHECK(format::html_escape("") == "");
    CHECK(format::html_escape("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
    CHECK(format::html_escape("caf\u00e9") == "caf\u00e9");
    CHECK(format::shown("a\x1b[31m\x7f b") == "a\\x1b[31m\\x7f b");
    CHECK(format::shown("tab\t") == "tab\\x09");
    CHECK(format::text_field("a\x1b,b", ',') == "a\\x1B\\,b");
    CHECK(format::json_string("a\"\\<\x01") == "\"a\\\"\\\\\\u003c\\u0001\"");
    CHECK(format::json_string("\xff") == "\"\\ufffd\"");
    CHECK(format::json_optional(std::nullopt) == "null");
    CHECK(format::json_optional(kMin) == "-9223372036854775808");
    std::string column;
    format::append_integer_column(column, "n", 3, [](std::size_t i) { return -std::int64_t(i); });
    CHECK(column == "\"n\":[0,-1,-2]");
}

TEST_CASE("TextTable and pad: columns by display width, no trailing spaces") {
    CHECK(format::display_width("") == 0);
    CHECK(format::display_width("caf\u00e9 \u2014") == 6);
    CHECK(format::pad("\u00e9", 3) == "\u00e9  ");
    CHECK(format::pad("long", 2) == "long ");
    using Align = format::TextTable::Align;
    format::TextTable table{{{"name", Align::left}, {"ms"}, {"", Align::left}}};
    table.add_row({"caf\u00e9", "1.000", ""});
    table.add_row({"a", "12,345.678", "~ noise"});
    table.add_row({"short row"});  // missing cells are empty
    std::ostringstream out;
    table.write(out);
    CHECK(out.str() ==
          "name               ms\n"
          "caf\u00e9            1.000\n"
          "a          12,345.678  ~ noise\n"
          "short row\n");
}
