// qprof::Query on several threads: one provider run per key, blocked waits, providers that
// throw while others wait, and cycles across threads.
#include <catch2/catch.hpp>

#include "query_test_support.hpp"

using qprof::Outcome;
using qprof::Query;
using qprof::Session;
using namespace qprof::test;

TEST_CASE("two threads asking for one key run the provider once; the other one waits") {
    qprof::test::ManualClock clock;  // every clock read advances: a wait lasts at least 1 ms
    std::atomic<int> provider_runs{0};
    std::latch computing{1};
    std::latch release{1};
    Query<int, std::string> slow{"slow", [&](const int& n) {
                                     ++provider_runs;
                                     computing.count_down();
                                     release.wait();
                                     return "value " + std::to_string(n);
                                 }};
    Session session{recording_options()};
    std::string owner_result;
    std::string waiter_result;
    std::thread owner{[&] {
        qprof::name_this_thread("owner");
        owner_result = slow(5);
    }};
    computing.wait();
    std::thread waiter{[&] {
        qprof::name_this_thread("waiter");
        waiter_result = slow(5);
    }};
    CHECK(until_waiting(1));
    release.count_down();
    owner.join();
    waiter.join();
    session.finish();

    CHECK(provider_runs == 1);
    CHECK(owner_result == "value 5");
    CHECK(waiter_result == "value 5");
    CHECK(slow.size() == 1);
    const qprof::Trace& trace = session.trace();
    const qprof::ThreadTrace& waiter_thread = thread_named(trace, "waiter");
    REQUIRE(waiter_thread.nodes.size() == 1);
    CHECK(waiter_thread.nodes[0].outcome == Outcome::blocked);
    CHECK(waiter_thread.nodes[0].duration_ns() > 0);
    const qprof::ThreadTrace& owner_thread = thread_named(trace, "owner");
    REQUIRE(owner_thread.nodes.size() == 1);
    CHECK(owner_thread.nodes[0].outcome == Outcome::miss);
    CHECK(totals_of(trace, "slow").blocked_ns > 0);
    CHECK(totals_of(trace, "slow").misses == 1);
}

TEST_CASE("a provider that throws: its caller and the waiters get the exception") {
    std::atomic<int> provider_runs{0};
    std::latch computing{1};
    std::latch release{1};
    Query<int, int> fragile{"fragile", [&](const int& n) {
                                if (provider_runs++ == 0) {
                                    computing.count_down();
                                    release.wait();
                                    throw std::runtime_error("provider failed");
                                }
                                return n + 1;
                            }};
    std::exception_ptr owner_error;
    std::exception_ptr waiter_error;
    std::thread owner{[&] { owner_error = error_of([&] { fragile(1); }); }};
    computing.wait();
    std::thread waiter{[&] { waiter_error = error_of([&] { fragile(1); }); }};
    CHECK(until_waiting(1));
    release.count_down();
    owner.join();
    waiter.join();

    CHECK(message_of(owner_error) == "provider failed");
    CHECK(waiter_error == owner_error);  // the same exception object
    CHECK(provider_runs == 1);
    CHECK_FALSE(fragile.contains(1));
    CHECK(fragile.size() == 0);
    CHECK(fragile(1) == 2);  // a later call runs the provider again
    CHECK(provider_runs == 2);
    CHECK(fragile.contains(1));
}

TEST_CASE("invalidate while a key is computed: its callers get the result, the cache does not") {
    std::latch computing{1};
    std::latch release{1};
    std::atomic<int> provider_runs{0};
    Query<int, int> query{"query", [&](const int& n) {
                              if (provider_runs++ == 0) {
                                  computing.count_down();
                                  release.wait();
                              }
                              return n;
                          }};
    int result = 0;
    std::thread owner{[&] { result = query(9); }};
    computing.wait();
    query.invalidate(9);
    release.count_down();
    owner.join();
    CHECK(result == 9);
    CHECK_FALSE(query.contains(9));
    CHECK(query(9) == 9);
    CHECK(provider_runs == 2);
}

TEST_CASE("many threads on overlapping keys: one provider run per key, right results") {
    constexpr int kThreads = 8;
    constexpr int kKeys = 2000;
    std::vector<std::atomic<int>> runs(kKeys);
    Query<int, std::shared_ptr<const std::string>> text{
        "text", [&](const int& n) {
            ++runs[n];
            return std::make_shared<std::string>(std::to_string(n));
        }};
    Session session{recording_options()};
    std::latch start{kThreads};
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            start.arrive_and_wait();
            for (int i = 0; i < kKeys; ++i) {
                const int key = (i * 7 + t * 13) % kKeys;  // each thread in its own order
                if (*text(key) != std::to_string(key)) {
                    ++wrong;
                }
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    session.finish();

    CHECK(wrong == 0);
    CHECK(std::all_of(runs.begin(), runs.end(), [](const auto& n) { return n == 1; }));
    CHECK(text.size() == kKeys);
    const qprof::Trace& trace = session.trace();
    std::uint64_t blocked = 0;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        blocked += nodes_with(thread, Outcome::blocked).size();
    }
    CHECK(totals_of(trace, "text").misses == kKeys);
    CHECK(totals_of(trace, "text").hits + blocked == (kThreads - 1) * kKeys);
    CHECK(qprof::detail::WaitGraph::instance().waiting_threads() == 0);
}

TEST_CASE("a cycle across two threads throws CycleError instead of deadlocking") {
    std::latch first_computing{1};
    std::latch second_computing{1};
    std::function<int(int)> call_first;
    Query<int, int> second{"second", [&](const int& n) {
                               second_computing.count_down();
                               if (!until_waiting(1)) {  // the first thread waits for this
                                   throw std::runtime_error("the first thread never waited");
                               }
                               return call_first(n - 1);
                           }};
    Query<int, int> first{"first", [&](const int& n) {
                              first_computing.count_down();
                              second_computing.wait();
                              return second(n + 1);
                          }};
    call_first = [&](int n) { return first(n); };

    std::exception_ptr first_error;
    std::exception_ptr second_error;
    std::thread first_thread{[&] { first_error = error_of([&] { first(1); }); }};
    first_computing.wait();
    std::thread second_thread{[&] { second_error = error_of([&] { second(2); }); }};
    first_thread.join();
    second_thread.join();

    const std::string expected =
        "cycle detected when computing second(2) \u2192 first(1); the cycle goes through another "
        "thread, which is computing first(1) and waits for second(2)";
    CHECK(is_cycle_error(second_error));
    CHECK(message_of(second_error) == expected);
    CHECK(first_error == second_error);  // the same exception, rethrown to the waiting thread
    CHECK(first.size() == 0);
    CHECK(second.size() == 0);
    CHECK(qprof::detail::WaitGraph::instance().waiting_threads() == 0);
}

TEST_CASE("a blocked wait carries the key it waited for", "[keys]") {
    qprof::SessionOptions options = recording_options();
    options.record_keys = true;
    std::latch computing{1};
    std::latch release{1};
    Query<DefId, int> slow{"slow", [&](const DefId& id) {
                               computing.count_down();
                               release.wait();
                               return int(id.index);
                           }};
    Session session{options};
    std::thread owner{[&] {
        qprof::name_this_thread("owner");
        slow(DefId{2, 7});
    }};
    computing.wait();
    std::thread waiter{[&] {
        qprof::name_this_thread("waiter");
        slow(DefId{2, 7});
    }};
    CHECK(until_waiting(1));
    release.count_down();
    owner.join();
    waiter.join();
    session.finish();

    const qprof::ThreadTrace& waiter_thread = thread_named(session.trace(), "waiter");
    REQUIRE(waiter_thread.nodes.size() == 1);
    CHECK(waiter_thread.nodes[0].outcome == Outcome::blocked);
    CHECK(session.trace().key_of(waiter_thread, 0) == "DefId{2, 7}");
    CHECK(session.trace().key_of(thread_named(session.trace(), "owner"), 0) == "DefId{2, 7}");
}

TEST_CASE("after invalidate a later caller computes anew instead of joining the old computation") {
    std::atomic<int> provider_runs{0};
    std::latch computing{1};
    std::latch release{1};
    Query<int, int> version{"version", [&](const int&) {
                                const int run = ++provider_runs;
                                if (run == 1) {
                                    computing.count_down();
                                    release.wait();
                                }
                                return run;
                            }};
    int first_result = 0;
    std::thread first{[&] { first_result = version(1); }};
    computing.wait();
    version.invalidate(1);
    std::atomic<bool> later_done{false};
    int later_result = 0;
    std::thread later{[&] {
        later_result = version(1);
        later_done = true;
    }};
    // The later caller either finishes on its own (right) or comes to wait for the first
    // computation (wrong); the first one is released only then, so neither case can hang.
    while (!later_done && qprof::detail::WaitGraph::instance().waiting_threads() == 0) {
        std::this_thread::yield();
    }
    release.count_down();
    first.join();
    later.join();
    CHECK(first_result == 1);
    CHECK(later_result == 2);
    CHECK(version(1) == 2);  // the old computation, finishing last, did not cache its value
    CHECK(provider_runs == 2);
    CHECK(version.size() == 1);
}
