// The lock-free side of qprof::Query's memo table (include/qprof/detail/finished_values.hpp): what
// a reader finds is always a value the table held for that key, never another key's nor a forgotten
// one, while the table grows, forgets and empties itself; and a Query whose hits go through it
// still computes each key once, recomputes after invalidate, and records every hit.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <qprof/detail/finished_values.hpp>
#include <random>
#include <thread>
#include <unordered_map>
#include <vector>

#include "query_test_support.hpp"

using qprof::Query;
using qprof::Session;
using qprof::detail::FinishedValues;
using namespace qprof::test;

namespace {

using IntValues = FinishedValues<std::uint32_t, std::uint64_t, qprof::KeyEqual<std::uint32_t>>;

// What Query hands FinishedValues: KeyHash mixed, the shard's bits shifted out.
std::uint64_t hash_of(std::uint32_t key) {
    return (std::uint64_t{key} * 0x9E3779B97F4A7C15ull) << 4;
}

}  // namespace

TEST_CASE("small trivially copyable keys and values take the lock-free path, others do not") {
    STATIC_REQUIRE(qprof::detail::kLockFreeHits<DefId, std::uint64_t>);
    STATIC_REQUIRE(qprof::detail::kLockFreeHits<int, int>);
    STATIC_REQUIRE_FALSE(qprof::detail::kLockFreeHits<int, std::string>);
    STATIC_REQUIRE_FALSE(qprof::detail::kLockFreeHits<std::string, int>);
    struct Large {
        std::uint64_t words[7];
    };
    STATIC_REQUIRE_FALSE(qprof::detail::kLockFreeHits<std::uint64_t, Large>);
}

TEST_CASE("finished values: found after insert through every growth, gone after erase") {
    IntValues values;
    constexpr std::uint32_t kKeys = 5000;
    CHECK_FALSE(values.find(hash_of(7), 7).has_value());
    for (std::uint32_t key = 0; key < kKeys; ++key) {
        values.insert(hash_of(key), key, std::uint64_t{key} * 3);
    }
    for (std::uint32_t key = 0; key < kKeys; ++key) {
        const std::optional<std::uint64_t> found = values.find(hash_of(key), key);
        REQUIRE(found);
        CHECK(*found == std::uint64_t{key} * 3);
    }
    CHECK_FALSE(values.find(hash_of(kKeys), kKeys).has_value());
    for (std::uint32_t key = 0; key < kKeys; key += 2) {
        values.erase(hash_of(key), key);
    }
    for (std::uint32_t key = 0; key < kKeys; ++key) {
        CHECK(values.find(hash_of(key), key).has_value() == (key % 2 == 1));
    }
    values.insert(hash_of(4), 4, 44);  // into the erased slot's probe again
    CHECK(values.find(hash_of(4), 4) == std::optional<std::uint64_t>{44});
}

TEST_CASE("finished values: under churn a find is the key's current value or a miss") {
    IntValues values;
    std::unordered_map<std::uint32_t, std::uint64_t> truth;  // what the Query's map holds
    std::mt19937 random{14};
    std::size_t found = 0;
    for (std::uint64_t step = 1; step <= 200000; ++step) {
        const std::uint32_t key = random() % 3000;
        if (const auto cached = truth.find(key); cached != truth.end()) {
            if (random() % 3 == 0) {
                values.erase(hash_of(key), key);
                truth.erase(cached);
            } else {
                values.insert(hash_of(key), key, cached->second);  // a hit under the mutex
            }
        } else {
            values.insert(hash_of(key), key, step);
            truth.emplace(key, step);
        }
        const std::uint32_t probe = random() % 3000;
        const std::optional<std::uint64_t> answer = values.find(hash_of(probe), probe);
        const auto expected = truth.find(probe);
        if (answer) {
            ++found;
            REQUIRE(expected != truth.end());
            REQUIRE(*answer == expected->second);
        }
        // Inserted or found under the mutex last: the next reader finds it without one.
        REQUIRE(values.find(hash_of(key), key) ==
                (truth.count(key) != 0 ? std::optional{truth[key]} : std::nullopt));
    }
    CHECK(found > 50000);  // most keys present are found without the map
}

TEST_CASE("a lock-free Query: one run per key, hits recorded, invalidate computes anew") {
    int provider_runs = 0;
    Query<DefId, std::uint64_t> def_index{"def_index", [&](const DefId& id) {
                                              ++provider_runs;
                                              return std::uint64_t{id.krate} * 100000 + id.index +
                                                     1000000 * std::uint64_t(provider_runs);
                                          }};
    Session session{recording_options()};
    constexpr std::uint32_t kKeys = 300;
    std::vector<std::uint64_t> first(kKeys);
    for (std::uint32_t index = 0; index < kKeys; ++index) {
        first[index] = def_index(DefId{index % 2, index});
    }
    for (std::uint32_t index = 0; index < kKeys; ++index) {
        CHECK(def_index(DefId{index % 2, index}) == first[index]);
    }
    CHECK(provider_runs == kKeys);
    def_index.invalidate(DefId{1, 7});
    const std::uint64_t again = def_index(DefId{1, 7});
    CHECK(again != first[7]);
    CHECK(again % 1000000 == 100007);
    CHECK(def_index(DefId{1, 7}) == again);
    def_index.clear();
    CHECK(def_index(DefId{0, 8}) % 1000000 == 8);
    CHECK(provider_runs == kKeys + 2);
    session.finish();

    const qprof::ProviderTotals& totals = totals_of(session.trace(), "def_index");
    CHECK(totals.misses == kKeys + 2);
    CHECK(totals.hits == kKeys + 1);
}

TEST_CASE("lock-free hits on several threads while another invalidates: never a stale value") {
    // Before each invalidate(key), the writer counts up the key's epoch; the provider puts the
    // epoch it read in the value. A reader that has seen epoch e began its call after the
    // invalidate that followed epoch e - 1, so it may get a value of epoch e - 1 (the next
    // invalidate has not run yet) or later, never an older one, nor another key's.
    constexpr std::uint32_t kKeys = 64;
    std::vector<std::atomic<std::uint64_t>> epochs(kKeys);
    std::atomic<std::uint64_t> computations{0};
    Query<std::uint32_t, std::uint64_t> versioned{"versioned", [&](const std::uint32_t& key) {
                                                      ++computations;
                                                      return epochs[key].load() << 8 | key;
                                                  }};
    std::atomic<bool> stop{false};
    std::atomic<int> failures{0};
    std::atomic<std::uint64_t> reads{0};
    auto reader = [&] {
        for (std::uint64_t round = 0; !stop.load(); ++round) {
            const auto key = static_cast<std::uint32_t>(round % kKeys);
            const std::uint64_t seen = epochs[key].load();
            const std::uint64_t value = versioned(key);
            if ((value & 0xff) != key || (value >> 8) + 1 < seen) {
                ++failures;
            }
            reads.fetch_add(1, std::memory_order_relaxed);
        }
    };
    std::thread first{reader};
    std::thread second{reader};
    // Until the readers have read a good while and computed keys again after invalidations,
    // so that writes and reads overlap however the threads are scheduled. The time limit only
    // keeps a broken Query from hanging the test.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (std::uint32_t round = 0;
         (round < 20000 || reads.load() < 100000 || computations.load() < 4 * kKeys) &&
         std::chrono::steady_clock::now() < give_up;
         ++round) {
        const std::uint32_t key = round % kKeys;
        ++epochs[key];
        versioned.invalidate(key);
    }
    stop = true;
    first.join();
    second.join();
    CHECK(failures == 0);
    CHECK(computations >= 4 * kKeys);
}
