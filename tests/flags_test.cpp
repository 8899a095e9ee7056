// -Z flags: the accepted forms, their removal from argv, QPROF_FLAGS, and every error. The
// flags that choose what is recorded and how it is coloured are in flags_selection_test.cpp.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "flag_args.hpp"
#include "test_support.hpp"

using qprof::ClockChoice;
using qprof::FlagError;
using qprof::SessionOptions;
using qprof::test::Args;
using qprof::test::error_of;
using qprof::test::parse;

TEST_CASE("both -Z forms are accepted and removed from argv") {
    for (const auto& words : {std::vector<std::string>{"-Z", "profile-queries"},
                              std::vector<std::string>{"-Zprofile-queries"}}) {
        Args args{words};
        const SessionOptions options = parse(args);
        CHECK(options.profile_queries);
        CHECK(options.reporters == std::vector<std::string>{"counts", "html"});
        CHECK(args.remaining().empty());
    }
}

TEST_CASE("the program's own arguments reach it untouched and in order") {
    Args args{
        {"--items", "10", "-Z", "profile-queries", "input.src", "-Zprofile-clock=steady", "-x"}};
    const SessionOptions options = parse(args);
    CHECK(options.profile_queries);
    CHECK(options.clock == ClockChoice::steady);
    CHECK(args.argc == 5);
    CHECK(args.remaining() == std::vector<std::string>{"--items", "10", "input.src", "-x"});
}

TEST_CASE("arguments after -- are the program's, even when they look like -Z flags") {
    Args args{{"-Zprofile-queries", "--", "-Z", "profile-querys"}};
    const SessionOptions options = parse(args);
    CHECK(options.profile_queries);
    CHECK(args.remaining() == std::vector<std::string>{"--", "-Z", "profile-querys"});
}

TEST_CASE("-Z profile-queries-and-keys records, with keys, into the chosen reporters") {
    Args plain{{"-Z", "profile-queries"}};
    CHECK_FALSE(parse(plain).record_keys);
    Args defaults{{"-Z", "profile-queries-and-keys"}};
    CHECK(parse(defaults).reporters == std::vector<std::string>{"counts", "keys", "html"});
    Args keys{{"-Zprofile-queries-and-keys=counts"}};
    const SessionOptions options = parse(keys);
    CHECK(options.profile_queries);
    CHECK(options.record_keys);
    CHECK(options.reporters == std::vector<std::string>{"counts"});
}

TEST_CASE("-Z profile-queries-memory records, with memory, and takes no value") {
    Args plain{{"-Z", "profile-queries"}};
    CHECK_FALSE(parse(plain).record_memory);
    Args memory{{"-Z", "profile-queries=raw", "-Z", "profile-queries-memory"}};
    const SessionOptions options = parse(memory);
    CHECK(options.profile_queries);
    CHECK(options.record_memory);
    CHECK(options.reporters == std::vector<std::string>{"raw"});
    Args alone{{"-Zprofile-queries-memory"}};
    CHECK(parse(alone).profile_queries);
    CHECK_THAT(error_of({"-Z", "profile-queries-memory=yes"}),
               Catch::Contains("profile-queries-memory"));
}

TEST_CASE("values of every flag") {
    Args args{{"-Z", "profile-queries=counts", "-Z", "profile-queries-dir=out/profiles", "-Z",
               "profile-clock=tsc", "-Zhelp"}};
    const SessionOptions options = parse(args);
    CHECK(options.reporters == std::vector<std::string>{"counts"});
    CHECK(options.output_dir == "out/profiles");
    CHECK(options.clock == ClockChoice::tsc);
    CHECK(options.show_help);
}

TEST_CASE("-Z profile-queries-important sets either threshold or both") {
    auto important = [](const std::string& value) {
        Args args{{"-Zprofile-queries-important=" + value}};
        const qprof::ReportOptions report = parse(args).report;
        return std::pair{report.important_extent, report.important_percent};
    };
    CHECK(important("10,0.5") == std::pair{10u, 0.5});
    CHECK(important("3") == std::pair{3u, 1.0});
    CHECK(important(",2.5") == std::pair{6u, 2.5});
    CHECK(important("1,100") == std::pair{1u, 100.0});
}

TEST_CASE("bad thresholds say what is expected") {
    const std::string expected =
        ": expected EXTENT,PERCENT as in '-Z profile-queries-important=6,1', where EXTENT is a "
        "whole number of immediate children (1 or more) and PERCENT a share of the busy time "
        "from 0 to 100; one of them may be left empty.";
    for (const char* value : {"0,1", "six,1", "6,101", "6,-1", "6,1%", ",", "6,1,2"}) {
        CHECK(error_of({"-Z", std::string("profile-queries-important=") + value}) ==
              "qprof: bad value in '-Z profile-queries-important=" + std::string(value) + "'" +
                  expected);
    }
    CHECK(error_of({"-Z", "profile-queries-important"}) ==
          "qprof: flag '-Z profile-queries-important' needs a value, as in "
          "'-Z profile-queries-important=EXTENT,PERCENT'.");
}

TEST_CASE("options of the folded and chrome reports") {
    Args none{{"-Z", "profile-queries"}};
    const qprof::ReportOptions defaults = parse(none).report;
    CHECK_FALSE(defaults.folded_merge_threads);
    CHECK_FALSE(defaults.folded_hits);
    CHECK_FALSE(defaults.folded_keys);
    CHECK_FALSE(defaults.folded_args);
    CHECK_FALSE(defaults.chrome_hits);
    CHECK_FALSE(defaults.chrome_keys);  // args would split speedscope's frames by key
    Args some{{"-Zprofile-queries-folded=keys,merge-threads", "-Zprofile-queries-chrome=hits"}};
    const qprof::ReportOptions report = parse(some).report;
    CHECK(report.folded_merge_threads);
    CHECK_FALSE(report.folded_hits);
    CHECK(report.folded_keys);
    CHECK(report.chrome_hits);
    CHECK_FALSE(report.chrome_keys);
    Args keys{{"-Z", "profile-queries", "-Zprofile-queries-chrome=keys"}};
    CHECK(parse(keys).report.chrome_keys);
    Args args{{"-Z", "profile-queries", "-Zprofile-queries-folded=args"}};
    CHECK(parse(args).report.folded_args);
    CHECK_FALSE(parse(args).report.folded_keys);
    CHECK(error_of({"-Z", "profile-queries-folded=hit"}) ==
          "qprof: unknown option 'hit' in '-Z profile-queries-folded=hit'. Did you mean 'hits'? "
          "Valid options: merge-threads, hits, keys, args, classes, bytes.");
    Args classes{{"-Z", "profile-queries", "-Zprofile-queries-folded=classes"}};
    CHECK(parse(classes).report.folded_classes);
    CHECK_FALSE(defaults.folded_classes);
    CHECK(error_of({"-Z", "profile-queries-chrome"}) ==
          "qprof: flag '-Z profile-queries-chrome' needs a value, as in "
          "'-Z profile-queries-chrome=hits,keys'.");
}

TEST_CASE("-Z profile-queries-folded=bytes: parsed, and a session without memory refuses it") {
    Args bytes{{"-Z", "profile-queries=folded", "-Z", "profile-queries-folded=bytes"}};
    const SessionOptions options = parse(bytes);
    CHECK(options.report.folded_bytes);
    CHECK_FALSE(options.report.folded_hits);
    try {
        qprof::Session session{options};
        FAIL("the session started without memory");
    } catch (const FlagError& error) {
        CHECK(std::string{error.what()} ==
              "qprof: -Z profile-queries-folded=bytes weighs stacks by the bytes allocated in "
              "them, but this run does not record memory: add -Z profile-queries-memory (and "
              "include <qprof/alloc_hook.hpp> in one source file of the program).");
    }
}

TEST_CASE("QPROF_FLAGS is read first and the command line wins") {
    Args args{{"-Z", "profile-queries-dir=from-argv"}};
    const SessionOptions options =
        parse(args, "  -Z profile-queries -Zprofile-queries-dir=from-env -Zprofile-clock=steady ");
    CHECK(options.profile_queries);
    CHECK(options.clock == ClockChoice::steady);
    CHECK(options.output_dir == "from-argv");
}

// The end of every unknown-flag message.
const std::string kValidFlags =
    "Valid flags: help, profile-queries, profile-queries-and-keys, profile-queries-memory, "
    "profile-queries-dir, profile-queries-name, profile-queries-inherit, "
    "profile-queries-important, profile-queries-folded, profile-queries-chrome, "
    "profile-queries-events, profile-queries-colour, profile-clock. "
    "Run with -Z help for a description of each.";

TEST_CASE("an unknown flag names the nearest one and every valid one") {
    CHECK(error_of({"-Z", "profile-querys"}) ==
          "qprof: unknown flag '-Z profile-querys'. Did you mean '-Z profile-queries'? " +
              kValidFlags);
    CHECK(error_of({"-Zprofile-clok=tsc"}) ==
          "qprof: unknown flag '-Z profile-clok'. Did you mean '-Z profile-clock'? " + kValidFlags);
    CHECK(error_of({"-Z", "profile-queries-and-key"}) ==
          "qprof: unknown flag '-Z profile-queries-and-key'. Did you mean "
          "'-Z profile-queries-and-keys'? " +
              kValidFlags);
    CHECK(error_of({"-Z", "time-passes"}) ==
          "qprof: unknown flag '-Z time-passes'. " + kValidFlags);
}

TEST_CASE("bad values name the valid choices") {
    CHECK(error_of({"-Z", "profile-clock=tsx"}) ==
          "qprof: unknown clock 'tsx' in '-Z profile-clock=tsx'. Did you mean 'tsc'? Valid "
          "clocks: tsc, steady.");
    CHECK(error_of({"-Z", "profile-queries=cuonts"}) ==
          "qprof: unknown reporter 'cuonts' in '-Z profile-queries=cuonts'. Did you mean "
          "'counts'? Valid reporters: counts, html, keys, folded, chrome, flamegraph, pprof, raw.");
    CHECK(error_of({"-Z", "profile-queries=counts,"}) ==
          "qprof: empty reporter name in '-Z profile-queries=counts,'; list reporters separated "
          "by commas, as in '-Z profile-queries=counts,html'.");
}

TEST_CASE("missing and unexpected values") {
    CHECK(error_of({"-Z", "profile-clock"}) ==
          "qprof: flag '-Z profile-clock' needs a value, as in '-Z profile-clock=tsc|steady'.");
    CHECK(error_of({"-Zprofile-queries-dir="}) ==
          "qprof: flag '-Z profile-queries-dir' needs a value, as in "
          "'-Z profile-queries-dir=PATH'.");
    CHECK(error_of({"-Z", "help=please"}) ==
          "qprof: flag '-Z help' takes no value, but '-Z help=please' gives one.");
    CHECK(error_of({"input.src", "-Z"}) ==
          "qprof: '-Z' must be followed by a flag name, as in '-Z profile-queries'. Run with -Z "
          "help for the list.");
}

TEST_CASE("errors in QPROF_FLAGS say so") {
    CHECK(error_of({}, "-Z profile-querys") ==
          "qprof: unknown flag '-Z profile-querys' (from QPROF_FLAGS). Did you mean "
          "'-Z profile-queries'? " +
              kValidFlags);
    CHECK(error_of({}, "-Z profile-queries --verbose") ==
          "qprof: QPROF_FLAGS holds only -Z flags, but it contains '--verbose'. Example: "
          "QPROF_FLAGS=\"-Z profile-queries\".");
    CHECK(error_of({}, "-Z") ==
          "qprof: '-Z' must be followed by a flag name, as in '-Z profile-queries' (from "
          "QPROF_FLAGS). Run with -Z help for the list.");
}

TEST_CASE("-Z help lists every flag and every reporter") {
    const std::string help = qprof::flags_help();
    for (const char* flag :
         {"-Z help", "-Z profile-queries[=REPORTER,...]",
          "-Z profile-queries-and-keys[=REPORTER,...]", "-Z profile-queries-dir=PATH",
          "-Z profile-queries-important=EXTENT,PERCENT", "-Z profile-clock=tsc|steady",
          "-Z profile-queries-events=LIST"}) {
        CHECK_THAT(help, Catch::Contains(flag));
    }
    CHECK_THAT(help, Catch::Contains("counts") && Catch::Contains("profile_queries.counts.txt"));
    CHECK_THAT(help, Catch::Contains("html") && Catch::Contains("profile_queries.html"));
    // when the page leaves out hits' keys (html_payload_layout.hpp, kColumnsBudgetBytes)
    CHECK_THAT(help, Catch::Contains("a page too heavy with its hits' keys leaves them out") &&
                         Catch::Contains("hits' keys are left out of it, and it says so, when "
                                         "with them its trace would pass 38 MB"));
}

// The rule as reporters/html_pieces.cpp (Importance) applies it and the page's legend states
// it: a share of the busy time, and a wide node only with 0.1 % (or PERCENT, if lower).
TEST_CASE("-Z help states the importance rule the HTML report applies") {
    const std::string help = qprof::flags_help();
    CHECK_THAT(help, Catch::Contains("a node with PERCENT % or more of the busy time"));
    CHECK_THAT(help, Catch::Contains("with EXTENT or more immediate children and 0.1 % or more "
                                     "(PERCENT, if lower), is important"));
}

TEST_CASE("QPROF_FLAGS quotes a value with a space as a shell does") {
    Args args{{}};
    const SessionOptions single =
        parse(args, "-Z profile-queries -Z 'profile-queries-dir=/tmp/my profiles'");
    CHECK(single.output_dir == "/tmp/my profiles");
    Args again{{}};
    CHECK(parse(again, R"(-Zprofile-queries-dir="/tmp/a \"b\" c")").output_dir ==
          R"(/tmp/a "b" c)");
    Args escaped{{}};
    CHECK(parse(escaped, R"(-Zprofile-queries-dir=/tmp/my\ dir)").output_dir == "/tmp/my dir");
    CHECK(error_of({}, "-Z 'profile-queries-dir=/tmp/x") ==
          "qprof: QPROF_FLAGS has an unclosed single quote. Quote a value with a space as in a "
          "shell: QPROF_FLAGS=\"-Z 'profile-queries-dir=/tmp/my profiles'\".");
}

TEST_CASE("messages show control bytes from a flag as \\xNN, never raw to the terminal") {
    const std::string message = error_of({"-Zprofile-\x1b[31mqueries"});
    CHECK(message.find('\x1b') == std::string::npos);
    CHECK_THAT(message, Catch::StartsWith("qprof: unknown flag '-Z profile-\\x1b[31mqueries'."));
    const std::string env = error_of({}, "oops\x07");
    CHECK(env.find('\x07') == std::string::npos);
    CHECK_THAT(env, Catch::Contains("'oops\\x07'"));
    const std::string value = error_of({"-Zprofile-clock=ts\x1b"});
    CHECK(value.find('\x1b') == std::string::npos);
    CHECK_THAT(value, Catch::Contains("unknown clock 'ts\\x1b'"));
}

TEST_CASE("-Z profile-queries-name and -Z profile-queries-inherit are read and checked") {
    Args args{{"-Zprofile-queries-name=%n-%p-%t", "-Zprofile-queries-inherit=no"}};
    const SessionOptions options = parse(args);
    CHECK(options.name_pattern == "%n-%p-%t");
    CHECK_FALSE(options.inherit_flags);
    CHECK_THAT(error_of({"-Zprofile-queries-inherit=maybe"}),
               Catch::StartsWith("qprof: unknown value 'maybe'") && Catch::Contains("yes, no"));
    CHECK_THAT(error_of({"-Zprofile-queries-name=a/%n"}), Catch::Contains("not a file name"));
}
