// Tree shape and per-provider totals, recorded through the macros with a manual clock
// (each clock read advances 1 ms).
#include <catch2/catch.hpp>
#include <stdexcept>

#include "test_support.hpp"

using qprof::Outcome;
using qprof::Session;
using qprof::test::recording_options;
using qprof::test::totals_of;
using qprof::test::tree_text;

namespace {

int generics_of(int id) {
    PROFILE_QUERY(generics_of, id);
    return id;
}

int type_of(int id) {
    PROFILE_QUERY(type_of, id);
    return generics_of(id) + 1;
}

void typeck(int id) {
    PROFILE_QUERY(typeck, id);
    type_of(id);
    PROFILE_QUERY_HIT(type_of, id);
}

int factorial(int n) {
    PROFILE_QUERY(factorial, n);
    return n <= 1 ? 1 : n * factorial(n - 1);
}

int ping(int n);
int pong(int n) {
    PROFILE_QUERY(pong, n);
    return ping(n - 1);
}
int ping(int n) {
    PROFILE_QUERY(ping, n);
    return n <= 0 ? 0 : pong(n);
}

int failing(int depth) {
    PROFILE_QUERY(failing, depth);
    if (depth == 0) {
        throw std::runtime_error("provider failed");
    }
    return failing(depth - 1);
}

}  // namespace

TEST_CASE("nested queries, hits and activities form the call tree") {
    qprof::test::ManualClock clock;
    Session session{recording_options()};
    {
        PROFILE_ACTIVITY("type checking");
        typeck(1);
    }
    session.finish();
    const qprof::Trace& trace = session.trace();

    REQUIRE(tree_text(trace) == "@type checking(typeck(type_of(generics_of) +type_of))");
    const qprof::ThreadTrace& thread = trace.threads.at(0);
    REQUIRE(thread.nodes.size() == 5);
    // Post-order: generics_of, type_of, hit, typeck, activity.
    CHECK(thread.nodes[0].depth == 3);
    CHECK(thread.nodes[1].depth == 2);
    CHECK(thread.nodes[1].extent == 1);
    CHECK(thread.nodes[2].outcome == Outcome::hit);
    CHECK(thread.nodes[2].depth == 2);
    CHECK(thread.nodes[3].extent == 2);
    CHECK(thread.nodes[4].outcome == Outcome::activity);
    CHECK(thread.nodes[4].depth == 0);
    CHECK(thread.name == "main");
}

TEST_CASE("times and totals follow the clock: count includes hits, self excludes children") {
    qprof::test::ManualClock clock;  // session start reads 1 ms; every later read adds 1 ms
    Session session{recording_options()};
    {
        PROFILE_ACTIVITY("type checking");
        typeck(1);
    }
    session.finish();
    const qprof::Trace& trace = session.trace();

    CHECK(trace.wall_ns == 9'000'000);
    CHECK(trace.clock == "manual");
    const qprof::Node& activity = trace.threads.at(0).nodes.at(4);
    CHECK(activity.start == 1'000'000);
    CHECK(activity.end == 8'000'000);

    const qprof::ProviderTotals& type_of_totals = totals_of(trace, "type_of");
    CHECK(type_of_totals.count == 2);
    CHECK(type_of_totals.hits == 1);
    CHECK(type_of_totals.misses == 1);
    CHECK(type_of_totals.total_ns == 3'000'000);
    CHECK(type_of_totals.self_ns == 2'000'000);
    CHECK(totals_of(trace, "typeck").total_ns == 5'000'000);
    CHECK(totals_of(trace, "typeck").self_ns == 2'000'000);
    CHECK(totals_of(trace, "generics_of").self_ns == 1'000'000);
    CHECK(totals_of(trace, "type checking").is_activity);
    CHECK(totals_of(trace, "type checking").total_ns == 7'000'000);
    CHECK(totals_of(trace, "type checking").self_ns == 2'000'000);
}

TEST_CASE("a provider re-entered inside itself is counted once in its total time") {
    qprof::test::ManualClock clock;
    Session session{recording_options()};
    factorial(3);
    ping(2);  // ping -> pong -> ping -> pong -> ping
    session.finish();
    const qprof::Trace& trace = session.trace();

    CHECK(tree_text(trace) == "factorial(factorial(factorial)) ping(pong(ping(pong(ping))))");
    const qprof::ProviderTotals& factorial_totals = totals_of(trace, "factorial");
    CHECK(factorial_totals.count == 3);
    CHECK(factorial_totals.total_ns == 5'000'000);  // the outermost run only
    CHECK(factorial_totals.self_ns == 5'000'000);   // 2 + 2 + 1
    CHECK(totals_of(trace, "ping").total_ns == 9'000'000);
    CHECK(totals_of(trace, "pong").total_ns == 7'000'000);
    CHECK(totals_of(trace, "ping").self_ns + totals_of(trace, "pong").self_ns == 9'000'000);
}

TEST_CASE("an exception unwinding through scopes closes each of them in order") {
    qprof::test::ManualClock clock;
    Session session{recording_options()};
    {
        PROFILE_ACTIVITY("pass");
        CHECK_THROWS_AS(failing(2), std::runtime_error);
        PROFILE_QUERY_HIT(after_the_error);
    }
    session.finish();
    const qprof::Trace& trace = session.trace();

    CHECK(tree_text(trace) == "@pass(failing(failing(failing)) +after_the_error)");
    CHECK(totals_of(trace, "failing").count == 3);
    CHECK(totals_of(trace, "failing").total_ns == 5'000'000);
}

TEST_CASE("scopes still open when the session ends are shown as unfinished") {
    qprof::test::ManualClock clock;
    Session session{recording_options()};
    {
        PROFILE_QUERY(outer);
        { PROFILE_QUERY(finished_inside); }
        session.finish();
    }
    const qprof::Trace& trace = session.trace();

    CHECK(tree_text(trace) == "?outer(finished_inside)");
    const qprof::Node& outer = trace.threads.at(0).nodes.at(1);
    CHECK(outer.unfinished);
    CHECK(outer.end == trace.wall_ns);
    CHECK_FALSE(trace.threads.at(0).nodes.at(0).unfinished);
}

TEST_CASE("sessions run one after another, each with only its own events") {
    {
        Session first{recording_options()};
        PROFILE_QUERY_HIT(in_first);
        first.finish();
        CHECK(tree_text(first.trace()) == "+in_first");
    }
    Session second{recording_options()};
    PROFILE_QUERY_HIT(in_second);
    second.finish();
    CHECK(tree_text(second.trace()) == "+in_second");
    CHECK(second.trace().providers.size() == 1);
}

TEST_CASE("a second session cannot start while one is recording") {
    Session first{recording_options()};
    REQUIRE_THROWS_WITH(Session{recording_options()},
                        Catch::Contains("a qprof::Session is already recording"));
}

TEST_CASE("without -Z profile-queries nothing is recorded") {
    Session session{qprof::SessionOptions{}};
    CHECK_FALSE(session.recording());
    typeck(1);
    session.finish();
    CHECK(session.trace().threads.empty());
    CHECK(session.written_files().empty());
}

TEST_CASE("children() and parents() agree with the recorded nesting") {
    Session session{recording_options()};
    typeck(1);
    typeck(2);
    session.finish();
    const qprof::ThreadTrace& thread = session.trace().threads.at(0);
    const std::vector<std::uint32_t> parents = thread.parents();
    for (std::uint32_t node = 0; node < thread.nodes.size(); ++node) {
        for (std::uint32_t child : thread.children(node)) {
            CHECK(parents[child] == node);
            CHECK(thread.nodes[child].depth == thread.nodes[node].depth + 1);
        }
        CHECK(thread.children(node).size() == thread.nodes[node].extent);
    }
    CHECK(thread.roots().size() == 2);
}
