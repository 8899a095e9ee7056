// qprof::Query: memoization, the outcomes it records (hit, miss, blocked, load), cycles on
// one thread and across threads, providers that throw, and many threads on shared keys.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <exception>
#include <functional>
#include <latch>
#include <memory>
#include <qprof/query.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

using qprof::CycleError;
using qprof::Outcome;
using qprof::Query;
using qprof::Session;
using qprof::test::recording_options;
using qprof::test::totals_of;
using qprof::test::tree_text;

namespace {

// A plain aggregate: no std::hash, no operator==.
struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

// Whether `count` threads came to wait for a result another thread computes. The time limit
// only keeps a broken Query from hanging the test; it is never reached when Query works.
bool until_waiting(std::size_t count) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (qprof::detail::WaitGraph::instance().waiting_threads() != count) {
        if (std::chrono::steady_clock::now() > give_up) {
            return false;
        }
        std::this_thread::yield();
    }
    return true;
}

const qprof::ThreadTrace& thread_named(const qprof::Trace& trace, const std::string& name) {
    for (const qprof::ThreadTrace& thread : trace.threads) {
        if (thread.name == name) {
            return thread;
        }
    }
    FAIL("no thread named " << name);
    throw std::logic_error("unreachable");
}

std::vector<const qprof::Node*> nodes_with(const qprof::ThreadTrace& thread, Outcome outcome) {
    std::vector<const qprof::Node*> found;
    for (const qprof::Node& node : thread.nodes) {
        if (node.outcome == outcome) {
            found.push_back(&node);
        }
    }
    return found;
}

std::exception_ptr error_of(const std::function<void()>& call) {
    try {
        call();
    } catch (...) {
        return std::current_exception();
    }
    return nullptr;
}

// Read on the thread that joined the others: libstdc++ shares an exception between threads
// through a reference count ThreadSanitizer cannot see, so its last owner is that thread.
std::string message_of(const std::exception_ptr& error) {
    try {
        if (error) {
            std::rethrow_exception(error);
        }
    } catch (const std::exception& exception) {
        return exception.what();
    }
    return "<no exception>";
}

std::string message_of(const std::function<void()>& call) { return message_of(error_of(call)); }

bool is_cycle_error(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const CycleError&) {
        return true;
    } catch (...) {
        return false;
    }
}

// type_of(id) needs generics_of(id), which needs type_of(id) again for index 3.
struct Compiler {
    Query<DefId, int> type_of{"type_of", [this](const DefId& id) { return generics_of(id) + 1; }};
    Query<DefId, int> generics_of{"generics_of", [this](const DefId& id) {
                                      return id.index == 3 ? type_of(id) : int(id.index) * 10;
                                  }};
};

}  // namespace

TEST_CASE("n calls over k distinct keys give k misses and n - k hits") {
    constexpr int kCalls = 10;
    constexpr int kKeys = 4;
    int provider_runs = 0;
    Query<int, int> square{"square", [&](const int& n) {
                               ++provider_runs;
                               return n * n;
                           }};
    Session session{recording_options()};
    for (int i = 0; i < kCalls; ++i) {
        CHECK(square(i % kKeys) == (i % kKeys) * (i % kKeys));
    }
    session.finish();

    CHECK(provider_runs == kKeys);
    CHECK(square.size() == kKeys);
    CHECK(square.name() == "square");
    const qprof::ProviderTotals& totals = totals_of(session.trace(), "square");
    CHECK(totals.misses == kKeys);
    CHECK(totals.hits == kCalls - kKeys);
    CHECK(tree_text(session.trace()) ==
          "square square square square +square +square +square "
          "+square +square +square");
}

TEST_CASE("a plain aggregate key works with no user hash or ==") {
    int provider_runs = 0;
    Query<DefId, std::uint32_t> def_index{"def_index", [&](const DefId& id) {
                                              ++provider_runs;
                                              return id.krate * 100 + id.index;
                                          }};
    CHECK(def_index(DefId{0, 3}) == 3);
    CHECK(def_index(DefId{1, 3}) == 103);
    CHECK(def_index(DefId{0, 3}) == 3);
    CHECK(def_index(DefId{3, 0}) == 300);
    CHECK(provider_runs == 3);
    CHECK(def_index.contains(DefId{1, 3}));
    CHECK_FALSE(def_index.contains(DefId{1, 4}));
}

TEST_CASE("a provider calling another query nests it, hits included") {
    Compiler compiler;
    Session session{recording_options()};
    CHECK(compiler.type_of(DefId{0, 1}) == 11);
    CHECK(compiler.generics_of(DefId{0, 1}) == 10);
    CHECK(compiler.type_of(DefId{0, 1}) == 11);
    session.finish();
    CHECK(tree_text(session.trace()) == "type_of(generics_of) +generics_of +type_of");
}

TEST_CASE("a cycle through two queries throws CycleError naming the path") {
    Compiler compiler;
    CHECK(compiler.type_of(DefId{0, 1}) == 11);
    const std::string expected =
        "cycle detected when computing type_of(DefId{0, 3}) \u2192 generics_of(DefId{0, 3}) "
        "\u2192 type_of(DefId{0, 3})";
    CHECK(message_of([&] { compiler.type_of(DefId{0, 3}); }) == expected);
    CHECK_THROWS_AS(compiler.type_of(DefId{0, 3}), CycleError);

    SECTION("the table is left consistent and the next call fails the same way") {
        CHECK(compiler.type_of.size() == 1);
        CHECK(compiler.generics_of.size() == 1);
        CHECK_FALSE(compiler.type_of.contains(DefId{0, 3}));
        CHECK_FALSE(compiler.generics_of.contains(DefId{0, 3}));
        CHECK(message_of([&] { compiler.type_of(DefId{0, 3}); }) == expected);
        CHECK(message_of([&] {
                  compiler.generics_of(DefId{0, 3});
              }) ==
              "cycle detected when computing generics_of(DefId{0, 3}) \u2192 type_of(DefId{0, 3}) "
              "\u2192 generics_of(DefId{0, 3})");
        CHECK(compiler.type_of(DefId{0, 4}) == 41);
        CHECK(compiler.type_of(DefId{0, 1}) == 11);
        CHECK(compiler.type_of.size() == 2);
    }
    SECTION("scopes unwound by the cycle are closed, and recorded as misses") {
        Session session{recording_options()};
        CHECK_THROWS_AS(compiler.type_of(DefId{0, 3}), CycleError);
        session.finish();
        CHECK(tree_text(session.trace()) == "type_of(generics_of)");
    }
}

TEST_CASE("a query that needs itself throws CycleError with a path of one step") {
    int provider_runs = 0;
    std::function<int(int)> call;
    Query<int, int> self{"self", [&](const int& n) {
                             ++provider_runs;
                             return n == 7 ? call(n) : n;
                         }};
    call = [&](int n) { return self(n); };
    CHECK(self(1) == 1);
    CHECK(message_of([&] { self(7); }) == "cycle detected when computing self(7) \u2192 self(7)");
    CHECK(self.size() == 1);
    CHECK_FALSE(self.contains(7));
    CHECK_THROWS_AS(self(7), CycleError);
    CHECK(provider_runs == 3);
    CHECK(self(2) == 2);
}

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

TEST_CASE("a loader answers the keys it knows as loads; the provider runs for the others") {
    qprof::test::ManualClock clock;
    std::vector<int> provided;
    int loader_calls = 0;
    Query<int, int> cached{"cached",
                           [&](const int& n) {
                               provided.push_back(n);
                               return n * 2;
                           },
                           [&](const int& n) -> std::optional<int> {
                               ++loader_calls;
                               if (n % 2 == 0) {
                                   return n * 2;
                               }
                               return std::nullopt;
                           }};
    Session session{recording_options()};
    for (int n = 0; n < 4; ++n) {
        CHECK(cached(n) == n * 2);
    }
    CHECK(cached(2) == 4);  // a hit: neither the loader nor the provider runs
    session.finish();

    CHECK(provided == std::vector<int>{1, 3});
    CHECK(loader_calls == 4);
    const qprof::ThreadTrace& thread = session.trace().threads.at(0);
    REQUIRE(thread.nodes.size() == 5);
    CHECK(thread.nodes[0].outcome == Outcome::load);
    CHECK(thread.nodes[1].outcome == Outcome::miss);
    CHECK(thread.nodes[2].outcome == Outcome::load);
    CHECK(thread.nodes[3].outcome == Outcome::miss);
    CHECK(thread.nodes[4].outcome == Outcome::hit);
    const qprof::ProviderTotals& totals = totals_of(session.trace(), "cached");
    CHECK(totals.load_ns > 0);
    CHECK(totals.misses == 2);
    CHECK(totals.hits == 1);
}

TEST_CASE("invalidate, clear, size and contains") {
    int provider_runs = 0;
    Query<std::string, std::size_t> length{"length", [&](const std::string& text) {
                                               ++provider_runs;
                                               return text.size();
                                           }};
    CHECK(length.size() == 0);
    CHECK_FALSE(length.contains("ab"));
    CHECK(length("ab") == 2);
    CHECK(length("abc") == 3);
    CHECK(length.size() == 2);
    CHECK(length.contains("ab"));

    length.invalidate("ab");
    length.invalidate("not cached");
    CHECK_FALSE(length.contains("ab"));
    CHECK(length.contains("abc"));
    CHECK(length.size() == 1);
    CHECK(length("ab") == 2);
    CHECK(provider_runs == 3);

    length.clear();
    CHECK(length.size() == 0);
    CHECK_FALSE(length.contains("abc"));
    CHECK(length("abc") == 3);
    CHECK(provider_runs == 4);
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

TEST_CASE("with -Z profile-queries-and-keys every Query node carries its key", "[keys]") {
    qprof::SessionOptions options = recording_options();
    options.record_keys = true;
    Compiler compiler;
    Query<std::string, std::size_t> length{
        "length", [](const std::string& text) { return text.size(); },
        [](const std::string& text) -> std::optional<std::size_t> {
            return text == "on disk" ? std::optional<std::size_t>{7} : std::nullopt;
        }};
    Session session{options};
    compiler.type_of(DefId{0, 1});
    compiler.type_of(DefId{0, 1});
    length("on disk");
    length("core::mem");
    session.finish();

    const qprof::Trace& trace = session.trace();
    CHECK(trace.keys_recorded);
    const qprof::ThreadTrace& thread = trace.threads.at(0);
    REQUIRE(tree_text(trace) == "type_of(generics_of) +type_of length length");
    CHECK(trace.key_of(thread, 0) == "DefId{0, 1}");  // generics_of
    CHECK(trace.key_of(thread, 1) == "DefId{0, 1}");  // type_of
    CHECK(trace.key_of(thread, 2) == "DefId{0, 1}");  // the hit
    CHECK(thread.nodes[3].outcome == Outcome::load);
    CHECK(trace.key_of(thread, 3) == "on disk");
    CHECK(trace.key_of(thread, 4) == "core::mem");
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

TEST_CASE("without -Z profile-queries-and-keys no key is recorded", "[keys]") {
    Compiler compiler;
    Session session{recording_options()};
    compiler.type_of(DefId{0, 1});
    compiler.type_of(DefId{0, 1});
    session.finish();

    const qprof::Trace& trace = session.trace();
    CHECK_FALSE(trace.keys_recorded);
    const qprof::ThreadTrace& thread = trace.threads.at(0);
    REQUIRE(thread.nodes.size() == 3);
    CHECK(thread.keys.empty());
    CHECK(trace.key_texts.empty());
    for (std::uint32_t node = 0; node < thread.nodes.size(); ++node) {
        CHECK(trace.key_of(thread, node).empty());
    }
}
