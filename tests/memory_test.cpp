// -Z profile-queries-memory: nested providers allocate known byte counts, some kept in a memo
// table (memory_workload.hpp), and the trace records them exactly; memory_reports_test.cpp
// checks every report that shows memory. This executable includes the allocation hook, so its
// own operator new is qprof's.
#include <malloc.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <memory>
#include <qprof/alloc_hook.hpp>
#include <qprof/qprof.hpp>
#include <vector>

#include "memory_workload.hpp"
#include "test_support.hpp"

using qprof::MemoryUse;
using qprof::test::totals_of;
using namespace qprof::test::workload;

TEST_CASE("memory: each provider's allocations, self and inclusive, and what it retained") {
    const qprof::Trace trace = run_workload(memory_options());
    const Expected e = expected();
    CHECK(trace.memory_recorded);
    CHECK(text(totals_of(trace, "inner").memory_total) == text(e.inner));
    CHECK(text(totals_of(trace, "inner").memory_self) == text(e.inner));
    CHECK(text(totals_of(trace, "nested").memory_total) == text(e.nested_total));
    CHECK(text(totals_of(trace, "nested").memory_self) == text(e.nested_self));
    CHECK(text(totals_of(trace, "outer").memory_self) == text(e.outer_self));
    CHECK(text(totals_of(trace, "outer").memory_total) == text(e.outer_total));
}

TEST_CASE("memory: each node carries what was allocated while it was open") {
    const qprof::Trace trace = run_workload(memory_options());
    const Expected e = expected();
    REQUIRE(trace.threads.size() == 1);
    const qprof::ThreadTrace& thread = trace.threads[0];
    REQUIRE(qprof::test::tree_text(trace) == "outer(inner +inner inner nested(nested(nested)))");
    REQUIRE(thread.memory.size() == thread.nodes.size());
    const Calls& inner = tally().inner;
    const Calls& nested = tally().nested;  // outermost call first
    const std::vector<std::string> by_node{
        text(inner[0]),       text({}),              // the hit
        text(inner[1]),       text(sum(nested, 2)),  // nested, deepest
        text(sum(nested, 1)), text(sum(nested, 0)),
        text(e.outer_total),
    };
    for (std::size_t node = 0; node < by_node.size(); ++node) {
        INFO("node " << node);
        CHECK(text(thread.memory[node]) == by_node[node]);
    }
}

namespace {

// Scopes whose bodies allocate nothing, inside one that allocates `kOuterKept` bytes: each makes
// qprof allocate for itself, on this thread, while the program's scopes are open. These sites
// are used here only, so each is registered inside `own_outer`.
void allocates_for_qprof_only(const std::vector<std::string>& keys) {
    PROFILE_QUERY(own_outer);
    keep(tally().own_outer[begin_call(tally().own_outer)], kOuterKept);
    for (const std::string& key : keys) {    // each a new key: its text is made and kept
        PROFILE_QUERY(own_keyed, key, key);  // two arguments: a tuple of copies
    }
    {
        PROFILE_ACTIVITY_ARG("own pass", keys.front());  // the argument's text
        qprof::record_size("own size", 1);               // a named site, registered
    }
    for (int scope = 0; scope < 200'000; ++scope) {  // about 170 chunks: new ones among them
        PROFILE_QUERY(own_leaf);
    }
}

}  // namespace

TEST_CASE("memory: what qprof allocates for itself is not charged to the program's scopes") {
    std::vector<std::string> keys;  // made before the session: longer than a short string
    keys.reserve(1'000);
    for (int key = 0; key < 1'000; ++key) {
        keys.push_back("a key longer than any short string optimisation " + std::to_string(key));
    }
    memo().clear();
    memo().reserve(64);
    reset_tally();
    qprof::SessionOptions options = memory_options();
    options.record_keys = true;
    qprof::Session session{std::move(options)};
    allocates_for_qprof_only(keys);
    session.finish();
    const qprof::Trace& trace = session.trace();
    REQUIRE(tally().own_outer.size() == 1);
    const MemoryUse own = tally().own_outer[0];
    CHECK(text(totals_of(trace, "own_outer").memory_self) == text(own));
    CHECK(text(totals_of(trace, "own_outer").memory_total) == text(own));
    for (const char* provider : {"own_keyed", "own pass", "own_leaf"}) {
        INFO(provider);
        CHECK(text(totals_of(trace, provider).memory_total) == text({}));
    }
    CHECK(totals_of(trace, "own_leaf").count == 200'000);
    memo().clear();
}

namespace {

// A key whose formatter runs a query of the program's own, which allocates (and keeps) kLevel
// bytes: formatted on the thread that records it, inside qprof's own allocations.
class Spelled {
  public:
    explicit Spelled(int id) : id_(id) {}
    int id() const { return id_; }

  private:
    int id_;
};

void spell() {
    PROFILE_QUERY(spell);
    keep(tally().spell[begin_call(tally().spell)], kLevel);
}

}  // namespace

template <>
struct qprof::KeyFormatter<Spelled> {
    static void format(std::string& out, const Spelled& key) {
        spell();
        out += "spelled " + std::to_string(key.id());
    }
};

TEST_CASE("memory: a query a key's formatter runs counts its own allocations") {
    memo().clear();
    memo().reserve(64);
    reset_tally();
    qprof::SessionOptions options = memory_options();
    options.record_keys = true;
    qprof::Session session{std::move(options)};
    {
        PROFILE_QUERY(spelled_outer);
        PROFILE_QUERY(spelled, Spelled{1});  // spell runs first, as spelled_outer's child
    }
    session.finish();
    const qprof::Trace& trace = session.trace();
    REQUIRE(tally().spell.size() == 1);
    const MemoryUse spelled = tally().spell[0];
    CHECK(text(totals_of(trace, "spell").memory_total) == text(spelled));
    CHECK(text(totals_of(trace, "spelled").memory_total) == text({}));
    CHECK(text(totals_of(trace, "spelled_outer").memory_total) == text(spelled));
    CHECK(text(totals_of(trace, "spelled_outer").memory_self) == text({}));
    memo().clear();
}

TEST_CASE("memory: without the flag nothing is counted and scopes keep their 24 bytes") {
    const qprof::Trace trace = run_workload(qprof::test::recording_options());
    CHECK_FALSE(trace.memory_recorded);
    REQUIRE(trace.threads.size() == 1);
    CHECK(trace.threads[0].memory.empty());
    CHECK(text(totals_of(trace, "outer").memory_total) == text({}));
    CHECK(qprof::detail::record_words(qprof::detail::RecordKind::miss) == 3);
}
