// Regions (qprof::enter_region): entering one ends the last; the thread's end, the session's
// end and the end of the scope a region was entered in end it too.
#include <catch2/catch.hpp>
#include <string>
#include <thread>

#include "test_support.hpp"

namespace {

qprof::Session recording() { return qprof::Session{qprof::test::recording_options()}; }

void query() { PROFILE_QUERY(typeck, 1); }

std::int64_t duration(const qprof::Trace& trace, std::uint32_t node, std::size_t thread = 0) {
    return trace.threads.at(thread).nodes.at(node).duration_ns();
}

}  // namespace

TEST_CASE("entering a region ends the one open: A then B, queries inside each") {
    qprof::test::ManualClock clock;
    qprof::Session session = recording();
    qprof::enter_region("loop A");
    query();
    PROFILE_REGION("loop B");
    query();
    query();
    qprof::exit_region();
    query();  // outside any region
    session.finish();
    const qprof::Trace& trace = session.trace();
    CHECK(qprof::test::tree_text(trace) == "@loop A(typeck) @loop B(typeck typeck) typeck");
    // One clock read per switch: A runs from its entry to B's, which is the same tick.
    const qprof::ThreadTrace& thread = trace.threads[0];
    CHECK(thread.nodes[1].end == thread.nodes[4].start);
    CHECK(duration(trace, 1) == 3'000'000);
    CHECK(duration(trace, 4) == 5'000'000);
    CHECK(qprof::test::totals_of(trace, "loop A").is_region);
    CHECK(qprof::test::totals_of(trace, "loop B").is_activity);
    CHECK_FALSE(thread.nodes[4].unfinished);
}

TEST_CASE("the same region entered again is a new run of it; exit without a region does nothing") {
    qprof::Session session = recording();
    qprof::exit_region();
    for (int i = 0; i < 3; ++i) {
        qprof::enter_region("dispatch");
        qprof::enter_region("execute");
    }
    qprof::exit_region();
    qprof::exit_region();
    session.finish();
    const qprof::Trace& trace = session.trace();
    CHECK(qprof::test::tree_text(trace) ==
          "@dispatch @execute @dispatch @execute @dispatch @execute");
    CHECK(qprof::test::totals_of(trace, "dispatch").count == 3);
}

TEST_CASE("a thread's end closes its region, as a finished run") {
    qprof::Session session = recording();
    std::thread{[] {
        qprof::enter_region("worker loop");
        query();
    }}.join();
    session.finish();
    const qprof::Trace& trace = session.trace();
    REQUIRE(trace.threads.size() == 1);
    CHECK(qprof::test::tree_text(trace) == "@worker loop(typeck)");
    CHECK_FALSE(trace.threads[0].nodes.back().unfinished);
}

TEST_CASE("the session's end closes the region open on its thread, as a finished run") {
    qprof::Session session = recording();
    qprof::enter_region("event loop");
    query();
    session.finish();
    CHECK(qprof::test::tree_text(session.trace()) == "@event loop(typeck)");
    CHECK_FALSE(session.trace().threads[0].nodes.back().unfinished);
    qprof::exit_region();  // after the session: nothing to end, nothing breaks
}

TEST_CASE("a region entered inside a scope nests in it and ends with it at the latest") {
    qprof::test::ManualClock clock;
    qprof::Session session = recording();
    qprof::enter_region("outer");
    {
        PROFILE_QUERY(typeck, 0);
        qprof::enter_region("inner 1");  // inside typeck: outer goes on
        query();
        qprof::enter_region("inner 2");  // ends inner 1 only
    }                                    // typeck ends: inner 2 ends with it, at the same tick
    query();                             // back in outer
    qprof::enter_region("next");         // ends outer
    session.finish();
    const qprof::Trace& trace = session.trace();
    CHECK(qprof::test::tree_text(trace) ==
          "@outer(typeck(@inner 1(typeck) @inner 2) typeck) @next");
    const qprof::ThreadTrace& thread = trace.threads[0];
    const std::vector<std::uint32_t> inside = thread.children(thread.roots()[0]);
    const qprof::Node& scope = thread.nodes[inside[0]];
    const qprof::Node& inner2 = thread.nodes[thread.children(inside[0]).back()];
    CHECK(inner2.end == scope.end);
    CHECK(qprof::test::totals_of(trace, "outer").count == 1);
}

TEST_CASE("regions in an activity's report: summarize's share and every reporter") {
    qprof::test::ManualClock clock;
    qprof::Session session = recording();
    qprof::enter_region("parse");
    query();
    qprof::enter_region("eval");
    query();
    query();
    qprof::exit_region();
    session.finish();
    const qprof::Trace& trace = session.trace();
    CHECK_THAT(qprof::test::report_text("chrome", trace),
               Catch::Contains(R"("name":"eval","cat":"activity")"));
    CHECK_THAT(qprof::test::report_text("folded", trace), Catch::Contains("main;eval;typeck "));
    CHECK_THAT(qprof::test::report_text("counts", trace), Catch::Contains("eval"));
}
