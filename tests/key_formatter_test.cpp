// The program's key formatters run inside the profiler: one that records queries of its own,
// or throws, must cost at most a key's text, never an event, the heap, a hang or the run.
#include <catch2/catch.hpp>
#include <map>
#include <qprof/query.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "test_support.hpp"

namespace {

// A key that owns a string: formatted when it is recorded, on the recording thread.
struct Symbol {
    std::string text;
};
// A key kept as bytes: formatted later, by the collector.
struct SymbolId {
    std::uint32_t index;
};
// Kept as bytes too; its formatter counts its calls.
struct UnitId {
    std::uint32_t index;
};
// Owns a string, and its formatter throws for an unknown name.
struct Named {
    std::string name;
};

int g_unit_formats = 0;         // calls of the UnitId formatter
int g_lookups_per_format = 0;   // hits each Symbol formatter records
bool g_nest_same_type = false;  // the Symbol formatter records a query keyed by a Symbol
bool g_nest_same_key = false;   // ... keyed by the very Symbol it formats

const std::map<std::uint32_t, std::string> kSymbolNames{{1, "main"}, {2, "helper"}};

}  // namespace

template <>
struct qprof::KeyFormatter<Symbol> {
    static void format(std::string& out, const Symbol& symbol) {
        for (int i = 0; i < g_lookups_per_format; ++i) {
            PROFILE_QUERY_HIT(symbol_table);  // a formatter that looks names up as queries
        }
        if (g_nest_same_type && symbol.text.size() < 3) {
            PROFILE_QUERY_HIT(spelling_of, Symbol{symbol.text + "'"});
        }
        if (g_nest_same_key) {
            PROFILE_QUERY_HIT(spelling_of, symbol);
        }
        out += symbol.text;
    }
};

template <>
struct qprof::KeyFormatter<SymbolId> {
    static void format(std::string& out, const SymbolId& id) { out += kSymbolNames.at(id.index); }
};

template <>
struct qprof::KeyFormatter<UnitId> {
    static void format(std::string& out, const UnitId& id) {
        ++g_unit_formats;
        out += "unit " + std::to_string(id.index);
    }
};

template <>
struct qprof::KeyFormatter<Named> {
    static void format(std::string& out, const Named& named) {
        if (named.name.empty()) {
            throw 42;  // not even a std::exception
        }
        out += kSymbolNames.at(static_cast<std::uint32_t>(std::stoul(named.name)));
    }
};

// The program's own text for a string type: a string it formats is never kept as its chars.
template <>
struct qprof::KeyFormatter<std::string_view> {
    static void format(std::string& out, std::string_view view) {
        out += "sv:";
        out += view;
    }
};

namespace {

qprof::SessionOptions options_with_keys() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    return options;
}

}  // namespace

// Declared first: the first format error of the process is the one said on stderr.
TEST_CASE("a formatter that throws is reported once, and its key shown as a format error") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = options_with_keys();
    options.reporters = {"raw", "keys"};  // raw: the collector formats the SymbolId keys
    options.output_dir = dir.path().string();
    qprof::test::CapturedStderr captured{dir.path() / "stderr.txt"};
    qprof::Session session{options};
    REQUIRE_NOTHROW([] {
        PROFILE_QUERY(resolve, Named{"7"});       // std::out_of_range from map::at, on this thread
        PROFILE_QUERY_HIT(name_of, SymbolId{9});  // the same on the collector thread
        PROFILE_QUERY_HIT(name_of, SymbolId{1});
        PROFILE_QUERY_HIT(resolve, Named{""});  // a throw of an int
        PROFILE_QUERY_HIT(resolve, Named{"2"});
    }());
    session.finish();
    const std::string err = captured.text();
    CHECK(qprof::test::count_of(err, "a key formatter threw") == 1);
    CHECK(qprof::test::count_of(err, "qprof: warning") == 1);
    const std::vector<std::string> nodes = qprof::test::keyed_nodes(session.trace());
    REQUIRE(nodes.size() == 5);
    CHECK(nodes[0].starts_with("name_of[<format error: "));
    CHECK(nodes[1] == "name_of[main]");
    CHECK(nodes[2] == "resolve[<format error: an exception that is not a std::exception>]");
    CHECK(nodes[3] == "resolve[helper]");
    CHECK(nodes[4].starts_with("resolve[<format error: "));
    CHECK(std::filesystem::file_size(dir.path() / "profile_queries.qprof") > 0);
    CHECK(std::filesystem::file_size(dir.path() / "profile_queries.keys.txt") > 0);
}

TEST_CASE("without a session a throwing formatter only changes a cycle's message") {
    qprof::Query<Named, int> looping{"looping",
                                     [&](const Named& named) -> int { return looping(named); }};
    CHECK_THROWS_AS(looping(Named{"5"}), qprof::CycleError);
    try {
        looping(Named{"5"});
    } catch (const qprof::CycleError& error) {
        CHECK_THAT(error.what(), Catch::Matchers::Contains("looping(<format error: "));
    }
}

TEST_CASE("events a formatter records land before the key's record, none lost") {
    g_lookups_per_format = 5000;  // over a chunk (8188 words) per formatted key
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(resolve, Symbol{"a"});
        PROFILE_QUERY_HIT(spelled, Symbol{"b"});
        PROFILE_QUERY_HIT(spelled, Symbol{"a"});  // already formatted: no lookups
    }
    session.finish();
    g_lookups_per_format = 0;
    const std::vector<std::string> nodes = qprof::test::keyed_nodes(session.trace());
    REQUIRE(nodes.size() == 10'003);
    for (std::size_t i = 0; i < 10'003; ++i) {
        if (i == 10'000) {
            CHECK(nodes[i] == "spelled[b]");
        } else if (i == 10'001) {
            CHECK(nodes[i] == "spelled[a]");
        } else if (i == 10'002) {
            CHECK(nodes[i] == "resolve[a]");
        } else if (nodes[i] != "symbol_table") {
            FAIL("node " << i << " is " << nodes[i]);
        }
    }
    // The first lookups ran before `resolve` opened, so they are its siblings, not children.
    CHECK(session.trace().threads.at(0).nodes.at(0).depth == 0);
    CHECK(session.trace().threads.at(0).nodes.at(5001).depth == 1);
}

TEST_CASE("a formatter may record queries keyed by its own key type") {
    g_nest_same_type = true;
    qprof::Session session{options_with_keys()};
    PROFILE_QUERY_HIT(defined, Symbol{"x"});
    session.finish();
    g_nest_same_type = false;
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"spelling_of[x'']", "spelling_of[x']", "defined[x]"});
}

TEST_CASE("a formatter that needs its own key's text ends with a stand-in, not a recursion") {
    g_nest_same_key = true;
    qprof::Session session{options_with_keys()};
    PROFILE_QUERY_HIT(defined, Symbol{"loop"});
    session.finish();
    g_nest_same_key = false;
    const std::vector<std::string> nodes = qprof::test::keyed_nodes(session.trace());
    REQUIRE(nodes.size() == 9);
    CHECK(nodes.front() == "spelling_of[<format error: key formatters nested too deeply>]");
    CHECK(nodes[1] == "spelling_of[loop]");
    CHECK(nodes.back() == "defined[loop]");
}

TEST_CASE("with totals only and no raw stream, only activities' arguments are formatted") {
    const bool raw = GENERATE(false, true);
    qprof::test::TempDir dir;
    qprof::SessionOptions options = options_with_keys();
    options.reporters = {"counts"};  // needs no nodes: the collector keeps totals only
    if (raw) {
        options.reporters.push_back("raw");
    }
    options.output_dir = dir.path().string();
    g_unit_formats = 0;
    qprof::Session session{options};
    for (std::uint32_t unit = 0; unit < 3; ++unit) {
        PROFILE_ACTIVITY_ARG("link", UnitId{7});
        PROFILE_QUERY_HIT(object_of, UnitId{unit});
    }
    session.finish();
    // Each distinct key once: the argument only, or every key when the stream needs its text.
    CHECK(g_unit_formats == (raw ? 4 : 1));
    const qprof::Trace& trace = session.trace();
    REQUIRE(trace.arguments.size() == 1);
    CHECK(trace.name_of(trace.arguments[0]) == "link(unit 7)");
    CHECK(trace.arguments[0].runs == 3);
    CHECK(qprof::test::totals_of(trace, "object_of").hits == 3);
}

TEST_CASE("a string type the program formats is not recorded as its chars") {
    STATIC_REQUIRE_FALSE(qprof::detail::kTextIsChars<std::string_view>);
    STATIC_REQUIRE(qprof::detail::kTextIsChars<std::string>);
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(by_view, std::string_view{"short"});
        PROFILE_QUERY_HIT(by_string, std::string{"short"});
    }
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"by_string[short]", "by_view[sv:short]"});
}
