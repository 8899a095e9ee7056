// -Z flags that choose what is recorded and how it is coloured: -Z profile-queries-events
// (kinds, providers, keys) and -Z profile-queries-colour, with their errors.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "flag_args.hpp"
#include "test_support.hpp"

using qprof::SessionOptions;
using qprof::test::Args;
using qprof::test::error_of;
using qprof::test::parse;

TEST_CASE("-Z profile-queries-events leaves kinds and providers out, from the default") {
    Args args{{"-Zprofile-queries", "-Zprofile-queries-events=-hits,-loads,-def_span,-typeck"}};
    const SessionOptions options = parse(args);
    CHECK_FALSE(options.events.hits);
    CHECK_FALSE(options.events.loads);
    CHECK(options.events.activities);
    CHECK(options.events.waits);
    CHECK(options.events.excluded == std::vector<std::string>{"def_span", "typeck"});
    CHECK_FALSE(options.record_keys);
    CHECK(options.events.left_out(false) == "hits, loads; providers def_span, typeck");
}

TEST_CASE("-Z profile-queries-events: a list that starts with a kind records those kinds only") {
    Args args{{"-Zprofile-queries-events=activities,waits"}};
    const qprof::EventSelection events = parse(args).events;
    CHECK(events.activities);
    CHECK(events.waits);
    CHECK_FALSE(events.hits);
    CHECK_FALSE(events.loads);
    Args all{{"-Zprofile-queries-events=-hits,all"}};
    const SessionOptions everything = parse(all);
    CHECK(everything.events.everything());
    CHECK(everything.record_keys);
    Args reset{{"-Zprofile-queries-events=-hits,-x,default,-waits"}};
    CHECK(parse(reset).events.left_out(false) == "waits");
}

TEST_CASE("-Z profile-queries-events: sizes and counters are kinds like the others") {
    Args args{{"-Zprofile-queries-events=-sizes,-counters"}};
    const qprof::EventSelection events = parse(args).events;
    CHECK_FALSE(events.sizes);
    CHECK_FALSE(events.counters);
    CHECK(events.hits);
    CHECK(events.left_out(false) == "sizes, counters");
    Args only{{"-Zprofile-queries-events=counters"}};
    const qprof::EventSelection counters_only = parse(only).events;
    CHECK(counters_only.counters);
    CHECK_FALSE(counters_only.sizes);
    CHECK_FALSE(counters_only.hits);
}

TEST_CASE("-Z profile-queries-events: keys=, for some providers only") {
    Args args{{"-Zprofile-queries", "-Zprofile-queries-events=keys=type_of,typeck,-hits"}};
    const SessionOptions options = parse(args);
    CHECK(options.record_keys);
    CHECK(options.events.key_providers == std::vector<std::string>{"type_of", "typeck"});
    CHECK_FALSE(options.events.hits);
    CHECK(options.reporters == std::vector<std::string>{"counts", "html"});
    Args off{{"-Zprofile-queries-and-keys", "-Zprofile-queries-events=-keys"}};
    CHECK_FALSE(parse(off).record_keys);
    Args on{{"-Zprofile-queries-events=keys"}};
    CHECK(parse(on).record_keys);
}

TEST_CASE("-Z profile-queries-events: a bad item is named, with what is accepted") {
    const std::string typo = error_of({"-Zprofile-queries-events=-hits,hitz"});
    CHECK_THAT(typo, Catch::StartsWith("qprof: unknown event kind 'hitz' in "
                                       "'-Z profile-queries-events=-hits,hitz'."));
    CHECK_THAT(typo,
               Catch::Contains("Accepted: hits, keys, activities, waits, loads, sizes, counters"));
    CHECK_THAT(typo, Catch::Contains("-PROVIDER") && Catch::Contains("keys=PROVIDER"));
    CHECK_THAT(error_of({"-Zprofile-queries-events=-hits,,-loads"}),
               Catch::StartsWith("qprof: empty item '' in"));
    CHECK_THAT(error_of({"-Zprofile-queries-events=-"}),
               Catch::StartsWith("qprof: empty item '-'"));
    CHECK_THAT(error_of({"-Zprofile-queries-events"}), Catch::Contains("needs a value"));
    CHECK_THAT(error_of({"-Zprofile-queries-events=keys="}),
               Catch::StartsWith("qprof: unknown event kind 'keys='"));
}

TEST_CASE("-Z profile-queries-colour takes REGEX:CLASS items, repeatable, in order") {
    Args args{{"-Z", "profile-queries-colour=^codegen:codegen,a:b:jit",
               "-Zprofile-queries-colour=x\\x2cy:odd.class-1"}};
    const SessionOptions options = parse(args);
    REQUIRE(options.colours.size() == 3);
    CHECK(options.colours[0] == qprof::ColourRule{"^codegen", "codegen"});
    CHECK(options.colours[1] == qprof::ColourRule{"a:b", "jit"});  // the class follows the last ':'
    CHECK(options.colours[2] == qprof::ColourRule{"x\\x2cy", "odd.class-1"});
    CHECK(args.remaining().empty());
}

TEST_CASE("-Z profile-queries-colour names what is wrong with an item and shows the form") {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"profile-queries-colour=codegen",
         "bad item 'codegen' in '-Z "
         "profile-queries-colour=codegen': the class is missing"},
        {"profile-queries-colour=codegen:", "the class is missing"},
        {"profile-queries-colour=:jit", "the regular expression is empty"},
        {"profile-queries-colour=(codegen:jit", "'(codegen' is not a regular expression"},
        {"profile-queries-colour=a:j it", "a class holds only letters, digits"},
        {"profile-queries-colour=a:" + std::string(33, 'c'), "longer than 32 bytes"},
        {"profile-queries-colour",
         "needs a value, as in '-Z profile-queries-colour=REGEX:CLASS,...'"},
    };
    for (const auto& [flag, message] : cases) {
        INFO(flag);
        const std::string error = error_of({"-Z", flag});
        CHECK_THAT(error, Catch::Contains(message));
        if (flag.find('=') != std::string::npos) {
            CHECK_THAT(error, Catch::Contains("Expected REGEX:CLASS") &&
                                  Catch::Contains("'-Z profile-queries-colour=^codegen:codegen"));
        }
    }
}

TEST_CASE("a colour rule given in code is checked when the session starts") {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.colours = {{"[", "jit"}};
    CHECK_THROWS_WITH(qprof::Session{options}, Catch::Contains("bad colour rule") &&
                                                   Catch::Contains("'[' is not a regular"));
}
