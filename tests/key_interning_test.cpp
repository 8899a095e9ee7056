// Interning the keys a recording meets: a key is formatted once in the process, whichever
// threads record it, found again with no lock, recorded as itself whatever its hash, and never
// kept when it is unequal to itself. The cache's index, comparison and hash are
// key_cache_test.cpp's; string keys' texts and formatters that record while their key is
// interned, key_interning_strings_test.cpp's.
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <qprof/detail/key_cache.hpp>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "key_test_types.hpp"
#include "test_support.hpp"

namespace {

// A reading that may be NaN, which no reading equals, itself included: as an aggregate
// (formatted by qprof), and with a formatter of the program's.
struct Reading {
    std::string probe;
    double value;
};
struct Gauge {
    std::string name;
    double value;
};

// Compared by an operator== of the program's that records keyed queries: of another type, and
// of its own when the key it is compared with has a short name. Every key of it has the same hash,
// so that every look-up of one compares it.
struct Compared {
    std::string name;
    bool operator==(const Compared& other) const {
        PROFILE_QUERY_HIT(compares, "compares " + name);
        if (other.name.size() < 2) {  // the key looked up: once for each
            PROFILE_QUERY_HIT(compares_own, Compared{other.name + "'"});
        }
        return name == other.name;
    }
};

}  // namespace

template <>
struct qprof::KeyFormatter<Gauge> {
    static void format(std::string& out, const Gauge& gauge) {
        out += gauge.name + " " + std::to_string(gauge.value);
    }
};

// How many keys of a type the calling thread's cache holds.
template <typename Key>
std::size_t cached_keys() {
    const qprof::detail::KeyIndex<Key>* index = qprof::detail::t_key_cache<Key>.index;
    return index != nullptr ? index->size() : 0;
}

// No look-up finds a key holding a NaN: kept, it would be added again at every call, the
// process's memory growing without end. (A plain double is recorded as its bytes, formatted
// at the end, and kept by no cache.)
TEST_CASE("a key unequal to itself is recorded as its text and not kept") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    qprof::Session session{options_with_keys()};
    for (int i = 0; i < 1000; ++i) {
        PROFILE_QUERY_HIT(measured, nan);
        PROFILE_QUERY_HIT(sampled, Reading{"probe", nan});
        PROFILE_QUERY_HIT(gauged, Gauge{"gauge", nan});
    }
    PROFILE_QUERY_HIT(sampled, Reading{"probe", 0.5});  // a number is kept
    session.finish();
    const std::vector<std::string> nodes = qprof::test::keyed_nodes(session.trace());
    REQUIRE(nodes.size() == 3001);
    CHECK(nodes[0] == "measured[nan]");
    CHECK(nodes[1] == "sampled[Reading{probe, nan}]");
    CHECK(nodes[2] == "gauged[gauge nan]");
    CHECK(nodes[2999] == "gauged[gauge nan]");
    CHECK(nodes[3000] == "sampled[Reading{probe, 0.5}]");
    CHECK(session.trace().key_texts.size() == 4);
    CHECK(cached_keys<Reading>() == 1);
    CHECK(cached_keys<Gauge>() == 0);
}

template <>
struct std::hash<Compared> {
    std::size_t operator()(const Compared&) const { return 7; }
};

// The comparison runs under the key tables' lock (a key looked up in its type's InternedKeys)
// and while the thread's cache is read: a key recorded there must neither take the lock again
// (it hung) nor be added to an index being read.
TEST_CASE("an operator== of the program's may record keyed queries while keys are looked up") {
    STATIC_REQUIRE(qprof::detail::compares_with_program_code<Compared>());
    STATIC_REQUIRE_FALSE(qprof::detail::compares_with_program_code<Located>());
    STATIC_REQUIRE_FALSE(qprof::detail::compares_with_program_code<std::pair<int, std::string>>());
    qprof::Session session{options_with_keys()};
    for (int round = 0; round < 3; ++round) {
        PROFILE_QUERY_HIT(asked, Compared{"a"});
        PROFILE_QUERY_HIT(asked, Compared{"b"});
    }
    session.finish();
    std::vector<std::string> asked;
    std::set<std::string> recorded_by_compare;
    for (const std::string& node : qprof::test::keyed_nodes(session.trace())) {
        if (node.starts_with("asked[")) {
            asked.push_back(node);
        } else {
            recorded_by_compare.insert(node);
        }
    }
    CHECK(asked == std::vector<std::string>{"asked[Compared{a}]", "asked[Compared{b}]",
                                            "asked[Compared{a}]", "asked[Compared{b}]",
                                            "asked[Compared{a}]", "asked[Compared{b}]"});
    CHECK(recorded_by_compare ==
          std::set<std::string>{"compares[compares a]", "compares[compares b]",
                                "compares_own[Compared{a'}]", "compares_own[Compared{b'}]"});
}

TEST_CASE("recorded keys with the same hash keep their own texts") {
    qprof::Session session{options_with_keys()};
    for (int round = 0; round < 3; ++round) {
        PROFILE_QUERY_HIT(symbol, Colliding{"alpha"});
        PROFILE_QUERY_HIT(symbol, Colliding{"beta"});
        PROFILE_QUERY_HIT(symbol, Colliding{"gamma"});
    }
    session.finish();
    const std::vector<std::string> nodes = qprof::test::keyed_nodes(session.trace());
    REQUIRE(nodes.size() == 9);
    for (int round = 0; round < 3; ++round) {
        CHECK(nodes[3 * round] == "symbol[Colliding{alpha}]");
        CHECK(nodes[3 * round + 1] == "symbol[Colliding{beta}]");
        CHECK(nodes[3 * round + 2] == "symbol[Colliding{gamma}]");
    }
}

TEST_CASE("a key is formatted once in the process, whichever threads record it") {
    g_counted_formats = 0;
    qprof::Session session{options_with_keys()};
    auto record = [] {
        for (int round = 0; round < 100; ++round) {
            for (int i = 0; i < 10; ++i) {
                PROFILE_QUERY_HIT(counted, Counted{"name " + std::to_string(i)});
            }
        }
    };
    record();
    std::thread{record}.join();  // a new cache: the main thread still holds its own
    std::thread{record}.join();  // the cache the thread before gave back
    session.finish();
    CHECK(g_counted_formats == 10);
    for (std::size_t thread = 0; thread < 3; ++thread) {
        const std::vector<std::string> nodes = qprof::test::keyed_nodes(session.trace(), thread);
        REQUIRE(nodes.size() == 1000);
        CHECK(nodes[0] == "counted[name 0]");
        CHECK(nodes[999] == "counted[name 9]");
    }
}

TEST_CASE("threads interning the same keys at once each record them as themselves") {
    qprof::Session session{options_with_keys()};
    std::vector<std::thread> threads;
    threads.reserve(4);
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([t] {
            for (int round = 0; round < 20; ++round) {
                for (int i = 0; i < 50; ++i) {
                    PROFILE_QUERY_HIT(shared, "shared " + std::to_string(i));
                    PROFILE_QUERY_HIT(own,
                                      "thread " + std::to_string(t) + " key " + std::to_string(i));
                }
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    session.finish();
    REQUIRE(session.trace().threads.size() == 4);  // the main thread recorded nothing
    for (std::size_t thread = 0; thread < 4; ++thread) {
        const std::vector<std::string> nodes = qprof::test::keyed_nodes(session.trace(), thread);
        REQUIRE(nodes.size() == 2000);
        CHECK(nodes[98] == "shared[shared 49]");
        CHECK(nodes[1999].starts_with("own[thread "));
        CHECK(nodes[1999].ends_with(" key 49]"));
    }
}

TEST_CASE("more distinct keys than a thread caches are all recorded as themselves") {
    constexpr std::size_t kKeys = qprof::detail::kMaxCachedKeys + 1000;
    qprof::Session session{options_with_keys()};
    for (std::size_t i = 0; i < kKeys; ++i) {
        PROFILE_QUERY_HIT(path, "file" + std::to_string(i));
    }
    PROFILE_QUERY_HIT(path, std::string("file0"));  // dropped from the cache when it was emptied
    session.finish();
    const std::vector<std::string> nodes = qprof::test::keyed_nodes(session.trace());
    REQUIRE(nodes.size() == kKeys + 1);
    CHECK(nodes[kKeys - 1] == "path[file" + std::to_string(kKeys - 1) + "]");
    CHECK(nodes[kKeys] == "path[file0]");
    CHECK(session.trace().key_texts.size() == kKeys);
}
