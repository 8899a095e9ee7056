// The collector's numbering of key texts: each distinct text once, numbered in order of first
// use, whatever the hashes, and every key's bytes bound to its text for the raw stream.
#include "key_texts.hpp"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <qprof/detail/key_record.hpp>
#include <string>
#include <vector>

#include "text_ids.hpp"

using qprof::detail::IdIndex;
using qprof::detail::KeyBinding;
using qprof::detail::KeyTexts;
using qprof::detail::TextIds;

TEST_CASE("text ids: distinct texts numbered from 1 in order of first use, past every growth") {
    TextIds ids;
    for (int i = 0; i < 5'000; ++i) {
        REQUIRE(ids.id_of("key " + std::to_string(i)) == static_cast<std::uint32_t>(i + 1));
    }
    for (int i = 4'999; i >= 0; --i) {
        REQUIRE(ids.id_of("key " + std::to_string(i)) == static_cast<std::uint32_t>(i + 1));
    }
    CHECK(ids.id_of("") == 5'001);
    CHECK(ids.id_of("") == 5'001);
    REQUIRE(ids.texts().size() == 5'001);
    CHECK(ids.texts()[0] == "key 0");
    CHECK(ids.texts()[4'999] == "key 4999");
    CHECK(ids.texts()[5'000].empty());
}

TEST_CASE("id index: values with the same hash are told apart by the caller's comparison") {
    IdIndex index;
    const std::vector<int> values{7, 8, 9};
    const auto find = [&](int value) {
        return index.find(42, [&](std::uint32_t id) { return values[id - 1] == value; });
    };
    CHECK(find(7) == 0);
    for (std::uint32_t id = 1; id <= values.size(); ++id) {
        index.add(42, id);
    }
    CHECK(find(7) == 1);
    CHECK(find(8) == 2);
    CHECK(find(9) == 3);
    CHECK(find(10) == 0);
}

TEST_CASE("key texts: interned keys of two types with one text share its id, each bound") {
    std::atomic<std::uint32_t> first_id{0};
    std::atomic<std::uint32_t> second_id{0};
    const std::uint32_t first_type = qprof::detail::register_key_type(first_id, {nullptr, 1});
    const std::uint32_t second_type = qprof::detail::register_key_type(second_id, {nullptr, 1});
    CHECK(qprof::detail::register_key_type(first_id, {nullptr, 1}) == first_type);  // once
    const std::uint64_t shared[] = {qprof::detail::intern_key_text("src/shared.cc")};
    const std::uint64_t other[] = {qprof::detail::intern_key_text("src/other.cc")};

    KeyTexts keys;
    keys.keep_bindings();
    REQUIRE(keys.payload_words(second_type) == 1);
    CHECK(keys.text_id(second_type, other) == 1);
    CHECK(keys.text_id(first_type, shared) == 2);
    CHECK(keys.text_id(second_type, shared) == 2);
    CHECK(keys.text_id(first_type, shared) == 2);
    CHECK(keys.texts() == std::vector<std::string>{"src/other.cc", "src/shared.cc"});

    const std::vector<KeyBinding> bindings = keys.take_bindings();
    REQUIRE(bindings.size() == 3);  // once per distinct key: (type, text id)
    CHECK(bindings[1].bytes.type == first_type);
    CHECK(bindings[2].bytes.type == second_type);
    CHECK(bindings[2].bytes.payload[0] == shared[0]);
    CHECK(bindings[2].text_id == 2);
}

TEST_CASE("key texts: a key kept as bytes is formatted once, and equal texts share an id") {
    const std::uint32_t type = qprof::detail::key_type_id<std::uint32_t>();
    const std::uint32_t interned = qprof::detail::key_type_id<std::string>();
    const std::uint64_t five[] = {5};
    const std::uint64_t six[] = {6};
    const std::uint64_t five_as_text[] = {qprof::detail::intern_key_text("5")};

    KeyTexts keys;
    keys.keep_bindings();
    REQUIRE(keys.payload_words(std::max(type, interned)) == 1);
    CHECK(keys.text_id(type, five) == 1);
    CHECK(keys.text_id(type, six) == 2);
    CHECK(keys.text_id(type, five) == 1);
    CHECK(keys.text_id(interned, five_as_text) == 1);  // another key, the same text
    CHECK(keys.texts() == std::vector<std::string>{"5", "6"});
    CHECK(keys.take_bindings().size() == 3);
}
