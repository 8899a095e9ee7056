// The texts of the keys a recording meets: which keys are formatted with no code of the
// program's, a string key kept as its own text whatever its length, threads interning the same
// new strings at once, and formatters that record keyed queries while their key is interned.
// Interning itself is key_interning_test.cpp's.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
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

#include "key_test_types.hpp"
#include "test_support.hpp"

using qprof::detail::KeyEntry;

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
