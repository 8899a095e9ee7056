// Keys in the trace: recorded with -Z profile-queries-and-keys only, formatted off the hot
// path (trivially copyable keys) or once per distinct key (others).
#include <catch2/catch.hpp>
#include <string>

#include "test_support.hpp"

namespace {

struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

struct Base {
    int a;
};
struct Derived : Base {  // an aggregate Boost.PFR cannot read
    int b;
};

int g_key_evaluations = 0;

int counted_key(int value) {
    ++g_key_evaluations;
    return value;
}

qprof::SessionOptions options_with_keys() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    return options;
}

}  // namespace

TEST_CASE("keys of every kind reach the trace as text") {
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(type_of, DefId{0, 3});
        PROFILE_QUERY_HIT(def_span, DefId{1, 42});
        PROFILE_QUERY_HIT(by_name, std::string("core::mem"));
        PROFILE_QUERY_HIT(by_number, 7);
        PROFILE_QUERY_HIT(by_two, 7, std::string("b"));
        PROFILE_QUERY_HIT(keyless);
        PROFILE_QUERY_LOAD(from_disk, DefId{0, 9});
    }
    session.finish();
    const qprof::Trace& trace = session.trace();
    CHECK(trace.keys_recorded);
    CHECK(qprof::test::keyed_nodes(trace) ==
          std::vector<std::string>{"def_span[DefId{1, 42}]", "by_name[core::mem]", "by_number[7]",
                                   "by_two[(7, b)]", "keyless", "from_disk[DefId{0, 9}]",
                                   "type_of[DefId{0, 3}]"});
    CHECK(trace.threads.at(0).nodes.at(5).outcome == qprof::Outcome::load);
}

TEST_CASE("a key stays with its own scope when nested scopes have keys too") {
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(outer, 1);
        {
            PROFILE_QUERY(middle);
            PROFILE_QUERY_HIT(inner, 3);
        }
        { PROFILE_QUERY(sibling, 4); }
    }
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"inner[3]", "middle", "sibling[4]", "outer[1]"});
}

TEST_CASE("each distinct key text is stored once") {
    qprof::Session session{options_with_keys()};
    for (int i = 0; i < 100; ++i) {
        PROFILE_QUERY_HIT(repeated, DefId{0, static_cast<std::uint32_t>(i % 3)});
        PROFILE_QUERY_HIT(named, std::string("same"));
    }
    session.finish();
    const qprof::Trace& trace = session.trace();
    CHECK(trace.key_texts.size() == 4);
    CHECK(trace.threads.at(0).keys.size() == 200);
}

TEST_CASE("a pointer key is formatted at once, while its target still exists") {
    qprof::Session session{options_with_keys()};
    for (int i = 0; i < 2; ++i) {
        const std::string name = "item " + std::to_string(i);
        PROFILE_QUERY_HIT(by_pointer, name.c_str());
    }
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"by_pointer[item 0]", "by_pointer[item 1]"});
}

TEST_CASE("a key qprof cannot see into still compiles and is named") {
    qprof::Session session{options_with_keys()};
    PROFILE_QUERY_HIT(opaque, Derived{{1}, 2});
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"opaque[Derived{?}]"});
}

TEST_CASE("an unfinished scope keeps its key") {
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(open_at_the_end, DefId{2, 5});
        session.finish();
    }
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"open_at_the_end[DefId{2, 5}]"});
    CHECK(session.trace().threads.at(0).nodes.at(0).unfinished);
}

TEST_CASE("without -Z profile-queries-and-keys keys are neither evaluated nor recorded") {
    g_key_evaluations = 0;
    {
        qprof::Session session{qprof::test::recording_options()};
        {
            PROFILE_QUERY(computed, counted_key(1));
            PROFILE_QUERY_HIT(cached, counted_key(2));
        }
        session.finish();
        CHECK(g_key_evaluations == 0);
        CHECK_FALSE(session.trace().keys_recorded);
        CHECK(session.trace().threads.at(0).keys.empty());
        CHECK(session.trace().key_texts.empty());
        CHECK(session.trace().key_of(session.trace().threads.at(0), 0).empty());
    }
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(computed, counted_key(1));
        PROFILE_QUERY_HIT(cached, counted_key(2));
    }
    session.finish();
    CHECK(g_key_evaluations == 2);
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"cached[2]", "computed[1]"});
}

TEST_CASE("a load is timed and counted as load time") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    { PROFILE_QUERY_LOAD(optimized_mir, 4); }
    { PROFILE_QUERY_LOAD_NAMED("mir::optimized", 4); }
    session.finish();
    const qprof::ProviderTotals& totals = qprof::test::totals_of(session.trace(), "optimized_mir");
    CHECK(totals.count == 1);
    CHECK(totals.misses == 0);
    CHECK(totals.load_ns == 1'000'000);
    CHECK(totals.total_ns == 1'000'000);
    CHECK(qprof::test::totals_of(session.trace(), "mir::optimized").load_ns == 1'000'000);
}
