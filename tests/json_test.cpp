// The JSON reader the tests use (tests/json.hpp).
#include "json.hpp"

#include <catch2/catch.hpp>

namespace {

namespace json = qprof::test::json;

std::size_t offset_of_error(std::string_view text) {
    try {
        json::parse(text);
    } catch (const json::ParseError& error) {
        return error.offset();
    }
    FAIL("parsed without error: " << text);
    return 0;
}

}  // namespace

TEST_CASE("json: every kind of value, in document order") {
    const json::Value doc =
        json::parse(R"( {"n": null, "t": true, "f": false, "num": -12.5e1, "s": "a\"\\\/b",)"
                    R"( "a": [1, [], {}], "o": {"z": 0, "a": 1}} )");
    CHECK(doc["n"].kind == json::Kind::null);
    CHECK(doc["t"].boolean);
    CHECK(doc["f"].kind == json::Kind::boolean);
    CHECK_FALSE(doc["f"].boolean);
    CHECK(doc["num"].number == -125.0);
    CHECK(doc["num"].text == "-12.5e1");
    CHECK(doc["s"].text == "a\"\\/b");
    CHECK(doc["a"].items.size() == 3);
    CHECK(doc["a"][0].number == 1.0);
    CHECK(doc["a"][1].kind == json::Kind::array);
    CHECK(doc["a"][2].kind == json::Kind::object);
    CHECK(doc["o"].members.front().name == "z");
    CHECK(doc.find("missing") == nullptr);
    CHECK_THROWS_AS(doc["missing"], std::out_of_range);
}

TEST_CASE("json: escapes become UTF-8") {
    const json::Value doc = json::parse(R"(["\u0001\n\t", "\u00e9\u20ac", "\ud83d\ude00"])");
    CHECK(doc[0].text == "\x01\n\t");
    CHECK(doc[1].text == "\xc3\xa9\xe2\x82\xac");
    CHECK(doc[2].text == "\xf0\x9f\x98\x80");
}

TEST_CASE("json: bad input throws with the byte offset") {
    CHECK(offset_of_error("") == 0);
    CHECK(offset_of_error("[1,]") == 3);
    CHECK(offset_of_error("{\"a\" 1}") == 5);
    CHECK(offset_of_error("[01]") == 2);
    CHECK(offset_of_error("[1.]") == 3);
    CHECK(offset_of_error("\"tab\there\"") == 4);
    CHECK(offset_of_error("\"\\x\"") == 2);
    CHECK(offset_of_error("\"\\ud83d\"") == 7);
    CHECK(offset_of_error("[1] 2") == 4);
    CHECK(offset_of_error("\"open") == 5);
    CHECK_THROWS_WITH(json::parse("[tru]"), "JSON: expected a value at byte 1");
}

TEST_CASE("json: a large array can be handed over element by element") {
    std::vector<double> seen;
    const json::Value doc =
        json::parse(R"({"head": 1, "events": [{"ts": 1}, {"ts": 2}], "tail": [3]})", "events",
                    [&](const json::Value& event) { seen.push_back(event["ts"].number); });
    CHECK(seen == std::vector<double>{1, 2});
    CHECK(doc["events"].items.empty());
    CHECK(doc["tail"][0].number == 3.0);
    CHECK(doc["head"].number == 1.0);
}
