// Interning the keys a recording meets: a key is formatted once in the process, whichever
// threads record it, found again with no lock, recorded as itself whatever its hash, and never
// kept when it is unequal to itself. The cache's index, comparison and hash are
// key_cache_test.cpp's.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <ostream>
#include <qprof/detail/key_cache.hpp>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

// Owns its value (so it is interned) and every key of it has the same hash.
struct Colliding {
    std::string name;
    bool operator==(const Colliding&) const = default;
};

// Counts how many times keys of it are formatted.
struct Counted {
    std::string name;
};
int g_counted_formats = 0;

}  // namespace

template <>
struct std::hash<Colliding> {
    std::size_t operator()(const Colliding&) const { return 42; }
};

template <>
struct qprof::KeyFormatter<Counted> {
    static void format(std::string& out, const Counted& counted) {
        ++g_counted_formats;
        out += counted.name;
    }
};

namespace {

using qprof::detail::KeyEntry;

// An aggregate without operator==: compared field by field.
struct Located {
    std::string path;
    std::uint32_t line;
};

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

qprof::SessionOptions options_with_keys() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    return options;
}

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

namespace {

enum class Colour { red, green };

// Printed by an operator<< of the program's.
struct Printed {
    int value;
};
[[maybe_unused]] std::ostream& operator<<(std::ostream& out, const Printed& printed) {
    return out << "printed " << printed.value;
}

// An aggregate that converts to a string by a function of the program's, which format_key
// calls before it looks at the fields.
struct Viewed {
    std::string text;
    operator std::string_view() const { return text; }
};

// A formatter that records a hit keyed by a new std::string (interned under the key tables'
// lock) and, for a short name, one keyed by its own type: it must run with no lock held.
struct Spelled {
    std::string name;
};

}  // namespace

template <>
struct qprof::KeyFormatter<Spelled> {
    static void format(std::string& out, const Spelled& spelled) {
        PROFILE_QUERY_HIT(file_of, "files/" + spelled.name);
        if (spelled.name.size() < 2) {
            PROFILE_QUERY_HIT(spelled_as, Spelled{spelled.name + "'"});
        }
        out += spelled.name;
    }
};

TEST_CASE("keys formatted with no code of the program's are told from the others") {
    using qprof::detail::formats_without_user_code;
    STATIC_REQUIRE(formats_without_user_code<std::string>());
    STATIC_REQUIRE(formats_without_user_code<Located>());
    STATIC_REQUIRE(formats_without_user_code<Colliding>());  // std::hash and == are not formatting
    STATIC_REQUIRE(formats_without_user_code<std::tuple<int, std::string, Colour>>());
    STATIC_REQUIRE(formats_without_user_code<std::optional<double>>());
    STATIC_REQUIRE_FALSE(formats_without_user_code<Counted>());  // a KeyFormatter
    STATIC_REQUIRE_FALSE(formats_without_user_code<std::pair<int, Counted>>());
    STATIC_REQUIRE_FALSE(formats_without_user_code<Printed>());  // an operator<<
    STATIC_REQUIRE_FALSE(formats_without_user_code<Viewed>());   // a conversion to a string
    STATIC_REQUIRE_FALSE(formats_without_user_code<std::vector<std::string>>());  // a range
    // A std::string key is its own text, kept once for both; any other key keeps a copy.
    STATIC_REQUIRE(std::is_same_v<decltype(KeyEntry<std::string>::key), std::string_view>);
    STATIC_REQUIRE(std::is_same_v<decltype(KeyEntry<Located>::key), Located>);
}

TEST_CASE("a string key's text is the key, whatever its length") {
    using qprof::detail::intern_key;
    using qprof::detail::interned_key_text;
    // Short and long texts, one longer than the block the texts are kept in, and short ones
    // again after it.
    std::vector<std::string> keys{"", "a", "own text/src/parser/expressions.cc"};
    for (const std::size_t size : {std::size_t{16} << 10, std::size_t{17} << 10,
                                   std::size_t{70} << 10, std::size_t{40} << 10}) {
        keys.push_back(std::string(size, 'x') + std::to_string(size));
    }
    for (int i = 0; i < 5000; ++i) {
        keys.push_back("own text/" + std::to_string(i));
    }
    std::vector<std::uint32_t> ids;
    ids.reserve(keys.size());
    for (const std::string& key : keys) {
        ids.push_back(intern_key(key));
    }
    std::set<std::uint32_t> distinct;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        CHECK(interned_key_text(ids[i]) == keys[i]);
        CHECK(intern_key(std::string{keys[i]}) == ids[i]);  // a copy: found by its chars
        distinct.insert(ids[i]);
    }
    CHECK(distinct.size() == keys.size());
    CHECK(interned_key_text(intern_key(Located{"src/a.cc", 3})) == "Located{src/a.cc, 3}");
}

// Threads that start together on the same new keys look each up at nearly the same moment,
// each missing it in its own cache: only one of them may add it, under the lock it looked it
// up with. (With the look-up and the addition under two takings of the lock, a few keys of a
// round got two ids.) The threads spin rather than sleep until all have started, so that they
// run in step from the first key.
TEST_CASE("threads interning the same new string keys at once get one text id for each") {
    constexpr int kThreads = 2;
    constexpr int kRounds = 50;
    constexpr int kKeys = 2000;
    int differing = 0;
    for (int round = 0; round < kRounds; ++round) {
        std::vector<std::string> keys;
        keys.reserve(kKeys);
        for (int i = 0; i < kKeys; ++i) {
            keys.push_back("at once " + std::to_string(round) + "/module" + std::to_string(i));
        }
        std::vector<std::vector<std::uint32_t>> ids(kThreads);
        std::atomic<int> started{0};
        std::vector<std::thread> threads;
        threads.reserve(kThreads);
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&keys, &started, &ids = ids[t]] {
                started.fetch_add(1);
                while (started.load() < kThreads) {
                }
                for (const std::string& key : keys) {
                    ids.push_back(qprof::detail::intern_key(key));
                }
            });
        }
        for (std::thread& thread : threads) {
            thread.join();
        }
        for (int t = 1; t < kThreads; ++t) {
            differing += ids[t] == ids[0] ? 0 : 1;
        }
        CHECK(std::set<std::uint32_t>(ids[0].begin(), ids[0].end()).size() == kKeys);
        CHECK(qprof::detail::interned_key_text(ids[0][kKeys - 1]) == keys[kKeys - 1]);
    }
    CHECK(differing == 0);
}

TEST_CASE("a formatter may record keyed queries while its own key is interned") {
    qprof::Session session{options_with_keys()};
    PROFILE_QUERY_HIT(defined, Spelled{"x"});
    PROFILE_QUERY_HIT(defined, Spelled{"x"});  // formatted already: no more queries
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"file_of[files/x]", "file_of[files/x']", "spelled_as[x']",
                                   "defined[x]", "defined[x]"});
}

TEST_CASE("a string key and a formatted key of the same text show one text") {
    qprof::Session session{options_with_keys()};
    const std::string text = "one text/src/lexer.cc";
    PROFILE_QUERY_HIT(by_string, text);           // its own text, kept without a look-up
    PROFILE_QUERY_HIT(by_pointer, text.c_str());  // formatted, and looked up
    PROFILE_QUERY_HIT(by_string, text);
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"by_string[" + text + "]", "by_pointer[" + text + "]",
                                   "by_string[" + text + "]"});
    CHECK(session.trace().key_texts == std::vector<std::string>{text});
}
