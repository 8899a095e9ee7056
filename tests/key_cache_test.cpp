// Each thread's cache of interned keys, its parts: the index of entries (found by hash and key,
// never confused with another key of the same hash, capped, grown past 64 KiB of slots), and
// the comparison and hash of keys it uses. The interning of keys in a recording is
// key_interning_test.cpp's.
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

using qprof::detail::KeyEntry;
using qprof::detail::KeyIndex;

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
    for (std::size_t size = 0; size <= 72; ++size) {
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
    for (std::size_t size = 0; size <= 72; ++size) {
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
