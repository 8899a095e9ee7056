#include <catch2/catch.hpp>

#include "test_support.hpp"

int compiled_out_queries(int n);

TEST_CASE("a translation unit built with profiling compiled out records nothing") {
    qprof::Session session{qprof::test::recording_options()};
    CHECK(compiled_out_queries(100) == 4950);
    { PROFILE_QUERY(compiled_in); }
    session.finish();
    CHECK(qprof::test::tree_text(session.trace()) == "compiled_in");
}
