// Each thread's cache of interned keys: a key is formatted once in the process, found again
// with no lock, never confused with another key of the same hash, and the cache's memory is
// capped and handed on to the next thread.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
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
using qprof::detail::KeyIndex;

qprof::SessionOptions options_with_keys() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    return options;
}

// Entries made for a test, at stable addresses as InternedKeys keeps them, with the keys' texts
// they view.
struct Entries {
    std::deque<std::string> texts;
    std::deque<KeyEntry<std::string>> entries;

    const KeyEntry<std::string>& operator[](std::size_t i) const { return entries[i]; }
    auto begin() const { return entries.begin(); }
    auto end() const { return entries.end(); }
};

Entries make_entries(int count, std::size_t same_hash = 0) {
    Entries made;
    for (int i = 0; i < count; ++i) {
        const std::string& key = made.texts.emplace_back("key " + std::to_string(i));
        const std::size_t hash = same_hash != 0 ? same_hash : std::hash<std::string>{}(key);
        made.entries.push_back({key, hash, static_cast<std::uint32_t>(i + 1)});
    }
    return made;
}

}  // namespace

TEST_CASE("an index finds every entry it holds, by hash and key, and nothing else") {
    KeyIndex<std::string> index;
    CHECK(index.find("absent", 7) == nullptr);  // never grown: probes one empty slot
    const auto entries = make_entries(1000);
    for (const auto& entry : entries) {
        index.insert(&entry);
    }
    index.insert(&entries[3]);  // already there
    CHECK(index.size() == 1000);
    for (const auto& entry : entries) {
        CHECK(index.find(std::string{entry.key}, entry.hash) == &entry);
    }
    CHECK(index.find("key 1000", std::hash<std::string>{}("key 1000")) == nullptr);
    CHECK(index.find("key 7", entries[8].hash) == nullptr);  // a hash that is not its own
}

// Slots from 64 KiB on are pages of their own, not blocks of the heap: growing from the heap to
// pages and on, and freeing pages, must keep every entry.
TEST_CASE("an index that grows past 64 KiB of slots finds every entry it holds") {
    const auto entries = make_entries(20'000);
    std::optional<KeyIndex<std::string>> index{std::in_place};
    for (const auto& entry : entries) {
        index->insert(&entry);
    }
    CHECK(index->size() == 20'000);  // 65,536 slots: 1 MiB
    for (const auto& entry : entries) {
        REQUIRE(index->find(std::string{entry.key}, entry.hash) == &entry);
    }
    CHECK(index->find("key 20000", std::hash<std::string>{}("key 20000")) == nullptr);
    index.reset();  // frees its pages
    KeyIndex<std::string> capped;
    for (const auto& entry : entries) {
        capped.insert(&entry, 8'192);  // 16,384 slots (256 KiB), emptied twice
    }
    CHECK(capped.size() == 20'000 - 2 * 8'192);
    CHECK(capped.find(std::string{entries[19'999].key}, entries[19'999].hash) == &entries[19'999]);
    CHECK(capped.find(std::string{entries[0].key}, entries[0].hash) == nullptr);
}

TEST_CASE("the cache's string comparison reads every byte of every length") {
    for (std::size_t size = 0; size <= 40; ++size) {
        const std::string text(size, 'a');
        std::string other = text;
        CHECK(qprof::detail::equal_chars(text.data(), other.data(), size));
        for (std::size_t i = 0; i < size; ++i) {
            other[i] = 'b';
            CHECK_FALSE(qprof::detail::equal_chars(text.data(), other.data(), size));
            other[i] = 'a';
        }
    }
    CHECK_FALSE(qprof::detail::cache_equal(std::string("ab"), std::string("abc")));
    CHECK(qprof::detail::cache_equal(std::string("src/a.cc"), std::string("src/a.cc")));
}

namespace {

// An aggregate without operator==: compared field by field.
struct Located {
    std::string path;
    std::uint32_t line;
};

}  // namespace

TEST_CASE("the cache compares keys by KeyEqual's rule, strings inside them too") {
    using qprof::detail::cache_equal;
    const auto agree = [](const auto& a, const auto& b) {
        using Key = std::remove_cvref_t<decltype(a)>;
        const bool equal = qprof::KeyEqual<Key>{}(a, b);
        CHECK(cache_equal(a, b) == equal);
        return equal;
    };
    const Located key{"src/parser/expressions.cc", 12};
    CHECK(agree(key, Located{"src/parser/expressions.cc", 12}));
    CHECK_FALSE(agree(key, Located{"src/parser/expressions.cx", 12}));
    CHECK_FALSE(agree(key, Located{"src/parser/expressions.c", 12}));
    CHECK_FALSE(agree(key, Located{"src/parser/expressions.cc", 13}));
    using Maybe = std::optional<std::string>;
    CHECK(agree(Maybe{"a/b.cc"}, Maybe{"a/b.cc"}));
    CHECK_FALSE(agree(Maybe{"a/b.cc"}, Maybe{}));
    CHECK(agree(Maybe{}, Maybe{}));
    using Paths = std::vector<Located>;
    CHECK(agree(Paths{{"a.cc", 1}, {"b.cc", 2}}, Paths{{"a.cc", 1}, {"b.cc", 2}}));
    CHECK_FALSE(agree(Paths{{"a.cc", 1}, {"b.cc", 2}}, Paths{{"a.cc", 1}, {"b.cd", 2}}));
    CHECK_FALSE(agree(Paths{{"a.cc", 1}}, Paths{{"a.cc", 1}, {"b.cc", 2}}));
}

TEST_CASE("the cache's string hash reads every byte of every length") {
    for (std::size_t size = 0; size <= 40; ++size) {
        std::string text(size, 'a');
        const std::uint64_t hash = qprof::detail::hash_chars(text.data(), size);
        CHECK(hash != qprof::detail::hash_chars(text.data(), size + 1));  // the length counts
        for (std::size_t i = 0; i < size; ++i) {
            text[i] = 'b';
            CHECK(qprof::detail::hash_chars(text.data(), size) != hash);
            text[i] = 'a';
        }
    }
}

TEST_CASE("keys with the same hash stay apart in an index") {
    KeyIndex<std::string> index;
    const auto entries = make_entries(50, 42);
    for (const auto& entry : entries) {
        index.insert(&entry);
    }
    for (const auto& entry : entries) {
        CHECK(index.find(std::string{entry.key}, 42) == &entry);
    }
    CHECK(index.find("key 50", 42) == nullptr);
}

TEST_CASE("an index with a cap is emptied when full, then fills again") {
    KeyIndex<std::string> index;
    const auto entries = make_entries(9);
    for (int i = 0; i < 8; ++i) {
        index.insert(&entries[i], 8);
    }
    CHECK(index.size() == 8);
    index.insert(&entries[8], 8);
    CHECK(index.size() == 1);
    CHECK(index.find(std::string{entries[8].key}, entries[8].hash) == &entries[8]);
    CHECK(index.find(std::string{entries[0].key}, entries[0].hash) == nullptr);
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
