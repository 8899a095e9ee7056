// Names and keys with any bytes in them -- line feeds, commas, control characters, bytes that
// are not UTF-8, nothing at all -- written into every text format without breaking it.
#include <catch2/catch.hpp>
#include <sstream>

#include "format.hpp"
#include "json.hpp"
#include "test_support.hpp"

using qprof::detail::json_string;
using qprof::detail::text_field;
using qprof::detail::valid_utf8;

namespace {

const std::string kFffd = "\xEF\xBF\xBD";

// One thread running a provider of each awkward name, one after another (1 ms clock steps).
qprof::Trace awkward_trace() {
    return qprof::test::trace_of([] {
        PROFILE_ACTIVITY("pass\none");
        { PROFILE_QUERY_NAMED("type_of<pair<int, int>>", 0); }
        { PROFILE_QUERY_NAMED("line\nfeed\r\n", 0); }
        { PROFILE_QUERY_NAMED("tab\tbell\a del\x7f back\\slash", 0); }
        { PROFILE_QUERY_NAMED("bad \xff utf-8 \xe2\x82 caf\xc3\xa9 \xed\xa0\x80", 0); }
        { PROFILE_QUERY_NAMED("", 0); }
        { PROFILE_QUERY_NAMED("quote \" and <script>", 0); }
    });
}

}  // namespace

TEST_CASE("valid_utf8: each ill-formed run becomes one U+FFFD, well-formed text is kept") {
    CHECK(valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    CHECK(valid_utf8("a\xff"
                     "b") == "a" + kFffd + "b");
    CHECK(valid_utf8("\xe2\x82(") == kFffd + "(");               // cut sequence, one run
    CHECK(valid_utf8("\xc0\xaf") == kFffd + kFffd);              // overlong: never valid
    CHECK(valid_utf8("\xed\xa0\x80") == kFffd + kFffd + kFffd);  // a surrogate
    CHECK(valid_utf8("\xf4\x90\x80\x80") == kFffd + kFffd + kFffd + kFffd);  // past U+10FFFF
    CHECK(valid_utf8("end \xf0\x9f\x98") == "end " + kFffd);
}

TEST_CASE("text_field: one line, backslash escapes, the separator escaped when given") {
    CHECK(text_field("type_of") == "type_of");
    CHECK(text_field("a\nb\rc\td") == "a\\nb\\rc\\td");
    CHECK(text_field("back\\slash") == "back\\\\slash");
    CHECK(text_field(std::string{"nul\0bell\a\x1b[31mdel\x7f", 18}) ==
          "nul\\x00bell\\x07\\x1B[31mdel\\x7F");
    CHECK(text_field("a,b") == "a,b");
    CHECK(text_field("a,b", ',') == "a\\,b");
    CHECK(text_field("bad\xff") == "bad" + kFffd);
}

TEST_CASE("json_string: control characters and '<' escaped, ill-formed UTF-8 as \\ufffd") {
    CHECK(json_string("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
    CHECK(json_string("a\"b\\c\n\x7f<") == R"("a\"b\\c\u000a\u007f\u003c")");
    CHECK(json_string("bad\xff\xe2\x82") == R"("bad\ufffd\ufffd")");
}

TEST_CASE("counts.txt: every awkward name one row of three fields, four for an activity (golden)") {
    const std::string counts = qprof::test::report_text("counts", awkward_trace());
    qprof::test::check_golden(counts, "counts_escaping.approved.txt");
    std::istringstream lines{counts};
    for (std::string line; std::getline(lines, line);) {
        INFO(line);
        CHECK(valid_utf8(line) == line);
        std::size_t unescaped_commas = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '\\') {
                ++i;
            } else if (line[i] == ',') {
                ++unescaped_commas;
            }
        }
        CHECK(unescaped_commas == (line.starts_with("pass\\none,") ? 3 : 2));  // an activity
    }
}

TEST_CASE("folded: awkward names keep every line one stack and a value (golden)") {
    const std::string folded = qprof::test::report_text("folded", awkward_trace());
    qprof::test::check_golden(folded, "folded_escaping.approved.txt");
    CHECK(valid_utf8(folded) == folded);
}

TEST_CASE("chrome trace.json: awkward names are valid JSON that reads back as valid UTF-8") {
    const std::string text = qprof::test::report_text("chrome", awkward_trace());
    CHECK(valid_utf8(text) == text);
    const qprof::test::json::Value doc = qprof::test::json::parse(text);
    std::vector<std::string> names;
    for (const auto& event : doc["traceEvents"].items) {
        if (event["ph"].text == "X") {
            names.push_back(event["name"].text);
        }
    }
    CHECK(names == std::vector<std::string>{
                       "pass\none", "type_of<pair<int, int>>", "line\nfeed\r\n",
                       "tab\tbell\a del\x7f back\\slash",
                       "bad " + kFffd + " utf-8 " + kFffd + " caf\xc3\xa9 " + kFffd + kFffd + kFffd,
                       "<unnamed>", "quote \" and <script>"});
}
