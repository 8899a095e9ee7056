// profile_queries.keys.txt, byte for byte, from a deterministic trace with keys.
#include <catch2/catch.hpp>

#include "test_support.hpp"

namespace {

struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

// type_of(n) asks type_of(n - 1): the key of the outermost call costs the most.
int type_of(std::uint32_t index) {
    PROFILE_QUERY(type_of, DefId{0, index});
    PROFILE_QUERY_HIT(def_span, DefId{0, index});
    return index == 0 ? 0 : type_of(index - 1) + 1;
}

}  // namespace

TEST_CASE("keys.txt matches the golden file") {
    qprof::test::ManualClock clock;  // every clock read advances 1 ms
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    options.reporters = {"keys"};
    options.output_dir = dir.path().string();
    {
        qprof::Session session{options};
        {
            PROFILE_ACTIVITY_ARG("codegen unit", "a.o");  // an argument is the activity's key
            type_of(2);
        }
        type_of(0);
        PROFILE_QUERY_HIT(def_span, DefId{0, 2});
    }
    qprof::test::check_golden(qprof::test::read_file(dir.path() / "profile_queries.keys.txt"),
                              "keys.approved.txt");
}

TEST_CASE("keys.txt says how to get keys when none were recorded") {
    qprof::Trace trace;
    CHECK(qprof::test::report_text("keys", trace) ==
          "# provider\tkey\tcount\thits\ttotal_s\tself_s\n"
          "# no keys: run with -Z profile-queries-and-keys to record them\n");
}

TEST_CASE("a key holding tabs or line breaks stays in its own field") {
    qprof::test::ManualClock clock;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    qprof::Session session{options};
    { PROFILE_QUERY(parse, std::string("a\tb\nc\rd")); }
    session.finish();
    const std::string text = qprof::test::report_text("keys", session.trace());
    CHECK_THAT(text, Catch::Contains("\nparse\ta\\tb\\nc\\rd\t1\t0\t"));
    CHECK(std::count(text.begin(), text.end(), '\n') == 2);  // the header and one row
}
