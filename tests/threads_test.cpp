// Several threads recording at once: every event made while the session records is in the
// trace, whether its thread ended before the session or was still alive at its end.
#include <catch2/catch.hpp>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "recording_control.hpp"
#include "test_support.hpp"

using qprof::test::recording_options;
using qprof::test::totals_of;

namespace {

constexpr int kScopesPerThread = 20'000;  // 3 words each: several 64 KiB chunks per thread

void make_events(const std::string& name) {
    qprof::name_this_thread(name);
    for (int i = 0; i < kScopesPerThread; ++i) {
        PROFILE_QUERY(work, i);
        PROFILE_QUERY_HIT(cached, i);
    }
}

}  // namespace

TEST_CASE("threads that end before the session and threads alive at its end keep every event") {
    constexpr int kEarly = 3;
    constexpr int kLate = 3;
    qprof::Session session{recording_options()};
    std::latch late_done{kLate};
    std::latch release_late{1};

    std::vector<std::thread> early;
    std::vector<std::thread> late;
    early.reserve(kEarly);
    late.reserve(kLate);
    for (int i = 0; i < kEarly; ++i) {
        early.emplace_back([i] { make_events("early " + std::to_string(i)); });
    }
    for (int i = 0; i < kLate; ++i) {
        late.emplace_back([&, i] {
            make_events("late " + std::to_string(i));
            late_done.count_down();
            release_late.wait();  // still alive, chunk half full, when the session ends
        });
    }
    for (std::thread& thread : early) {
        thread.join();
    }
    late_done.wait();
    session.finish();
    release_late.count_down();
    for (std::thread& thread : late) {
        thread.join();
    }

    const qprof::Trace& trace = session.trace();
    constexpr std::uint64_t kThreads = kEarly + kLate;
    REQUIRE(trace.threads.size() == kThreads);
    CHECK(trace.node_count() == kThreads * 2 * kScopesPerThread);
    CHECK(totals_of(trace, "work").count == kThreads * kScopesPerThread);
    CHECK(totals_of(trace, "cached").hits == kThreads * kScopesPerThread);
    std::vector<std::string> names;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        CHECK(thread.nodes.size() == 2 * kScopesPerThread);
        CHECK(thread.roots().size() == kScopesPerThread);
        CHECK(thread.nodes.back().extent == 1);
        names.push_back(thread.name);
    }
    std::sort(names.begin(), names.end());
    CHECK(names ==
          std::vector<std::string>{"early 0", "early 1", "early 2", "late 0", "late 1", "late 2"});
}

TEST_CASE("a thread that recorded in an earlier session joins the next one afresh") {
    std::latch first_done{1};
    std::latch second_started{1};
    std::latch second_done{1};
    std::unique_ptr<qprof::Session> session = std::make_unique<qprof::Session>(recording_options());
    std::thread worker{[&] {
        { PROFILE_QUERY(in_first_session); }
        first_done.count_down();
        second_started.wait();
        { PROFILE_QUERY(in_second_session); }
        second_done.count_down();
    }};
    first_done.wait();
    session->finish();
    CHECK(session->trace().node_count() == 1);
    session = std::make_unique<qprof::Session>(recording_options());
    second_started.count_down();
    second_done.wait();
    session->finish();
    worker.join();
    CHECK(qprof::test::tree_text(session->trace()) == "in_second_session");
    CHECK(session->trace().threads.at(0).name == "thread 0");
}

TEST_CASE("the names of the threads from an index on: what the collector fetches for new threads") {
    using qprof::detail::thread_names;
    qprof::Session session{recording_options()};
    { PROFILE_QUERY(on_main); }  // the main thread joins first: index 0
    for (const char* name : {"first", "second", "third"}) {
        std::thread{[name] {
            qprof::name_this_thread(name);
            PROFILE_QUERY(on_worker);
        }}.join();
    }
    const std::uint32_t generation = qprof::detail::g_generation.load();
    const std::vector<std::string> all = thread_names(generation);
    REQUIRE(all.size() == 4);
    CHECK(std::vector<std::string>(all.begin() + 1, all.end()) ==
          std::vector<std::string>{"first", "second", "third"});
    CHECK(thread_names(generation, 2) == std::vector<std::string>{"second", "third"});
    CHECK(thread_names(generation, 3) == std::vector<std::string>{"third"});
    CHECK(thread_names(generation, 4).empty());
    CHECK(thread_names(generation, 100).empty());
    CHECK(thread_names(generation + 1, 1).empty());  // not the recording session's
    session.finish();
}
