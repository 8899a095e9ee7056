// Keys in the trace: recorded with -Z profile-queries-and-keys only, formatted off the hot
// path (trivially copyable keys) or once per distinct key (others).
#include <algorithm>
#include <catch2/catch.hpp>
#include <iterator>
#include <string>

#include "test_support.hpp"

namespace {

struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

struct Base {
    int a;
};
struct Derived : Base {  // an aggregate Boost.PFR cannot read
    int b;
};

int g_key_evaluations = 0;

int counted_key(int value) {
    ++g_key_evaluations;
    return value;
}

qprof::SessionOptions options_with_keys() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    return options;
}

}  // namespace

TEST_CASE("keys of every kind reach the trace as text") {
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(type_of, DefId{0, 3});
        PROFILE_QUERY_HIT(def_span, DefId{1, 42});
        PROFILE_QUERY_HIT(by_name, std::string("core::mem"));
        PROFILE_QUERY_HIT(by_number, 7);
        PROFILE_QUERY_HIT(by_two, 7, std::string("b"));
        PROFILE_QUERY_HIT(keyless);
        PROFILE_QUERY_LOAD(from_disk, DefId{0, 9});
    }
    session.finish();
    const qprof::Trace& trace = session.trace();
    CHECK(trace.keys_recorded);
    CHECK(qprof::test::keyed_nodes(trace) ==
          std::vector<std::string>{"def_span[DefId{1, 42}]", "by_name[core::mem]", "by_number[7]",
                                   "by_two[(7, b)]", "keyless", "from_disk[DefId{0, 9}]",
                                   "type_of[DefId{0, 3}]"});
    CHECK(trace.threads.at(0).nodes.at(5).outcome == qprof::Outcome::load);
}

TEST_CASE("a key stays with its own scope when nested scopes have keys too") {
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(outer, 1);
        {
            PROFILE_QUERY(middle);
            PROFILE_QUERY_HIT(inner, 3);
        }
        { PROFILE_QUERY(sibling, 4); }
    }
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"inner[3]", "middle", "sibling[4]", "outer[1]"});
}

TEST_CASE("each distinct key text is stored once") {
    qprof::Session session{options_with_keys()};
    for (int i = 0; i < 100; ++i) {
        PROFILE_QUERY_HIT(repeated, DefId{0, static_cast<std::uint32_t>(i % 3)});
        PROFILE_QUERY_HIT(named, std::string("same"));
    }
    session.finish();
    const qprof::Trace& trace = session.trace();
    CHECK(trace.key_texts.size() == 4);
    CHECK(trace.threads.at(0).keys.size() == 200);
}

TEST_CASE("a pointer key is formatted at once, while its target still exists") {
    qprof::Session session{options_with_keys()};
    for (int i = 0; i < 2; ++i) {
        const std::string name = "item " + std::to_string(i);
        PROFILE_QUERY_HIT(by_pointer, name.c_str());
    }
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"by_pointer[item 0]", "by_pointer[item 1]"});
}

TEST_CASE("a key qprof cannot see into still compiles and is named") {
    qprof::Session session{options_with_keys()};
    PROFILE_QUERY_HIT(opaque, Derived{{1}, 2});
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"opaque[Derived{?}]"});
}

TEST_CASE("an unfinished scope keeps its key") {
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(open_at_the_end, DefId{2, 5});
        session.finish();
    }
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"open_at_the_end[DefId{2, 5}]"});
    CHECK(session.trace().threads.at(0).nodes.at(0).unfinished);
}

TEST_CASE("without -Z profile-queries-and-keys keys are neither evaluated nor recorded") {
    g_key_evaluations = 0;
    {
        qprof::Session session{qprof::test::recording_options()};
        {
            PROFILE_QUERY(computed, counted_key(1));
            PROFILE_QUERY_HIT(cached, counted_key(2));
        }
        session.finish();
        CHECK(g_key_evaluations == 0);
        CHECK_FALSE(session.trace().keys_recorded);
        CHECK(session.trace().threads.at(0).keys.empty());
        CHECK(session.trace().key_texts.empty());
        CHECK(session.trace().key_of(session.trace().threads.at(0), 0).empty());
    }
    qprof::Session session{options_with_keys()};
    {
        PROFILE_QUERY(computed, counted_key(1));
        PROFILE_QUERY_HIT(cached, counted_key(2));
    }
    session.finish();
    CHECK(g_key_evaluations == 2);
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"cached[2]", "computed[1]"});
}

TEST_CASE("a load is timed and counted as load time") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    { PROFILE_QUERY_LOAD(optimized_mir, 4); }
    { PROFILE_QUERY_LOAD_NAMED("mir::optimized", 4); }
    session.finish();
    const qprof::ProviderTotals& totals = qprof::test::totals_of(session.trace(), "optimized_mir");
    CHECK(totals.count == 1);
    CHECK(totals.misses == 0);
    CHECK(totals.load_ns == 1'000'000);
    CHECK(totals.total_ns == 1'000'000);
    CHECK(qprof::test::totals_of(session.trace(), "mir::optimized").load_ns == 1'000'000);
}

namespace {

// The printable chars '!', '"', ... '~', over and over, of a string of `size`: no NUL.
std::string counted_chars(std::size_t size) {
    std::string chars(size, ' ');
    for (std::size_t i = 0; i < size; ++i) {
        chars[i] = static_cast<char>('!' + i % 94);
    }
    return chars;
}

}  // namespace

TEST_CASE("a string key of at most 4,096 chars is recorded as its chars, a longer one interned") {
    using qprof::detail::CountedChars;
    using qprof::detail::format_short_string;
    using qprof::detail::head_site;
    using qprof::detail::key_type_id;
    using qprof::detail::kMaxCountedChars;
    using qprof::detail::PreparedKey;
    using qprof::detail::ShortString;
    // Room for the longest record a string key makes: the head, the count, 4,096 chars.
    constexpr std::size_t kRoom = 2 + kMaxCountedChars / 8;
    const std::string with_nul{"a\0b", 3};
    const std::string too_long = counted_chars(kMaxCountedChars + 1);
    const auto type_of = [](std::size_t bytes) {
        return bytes == 32   ? key_type_id<ShortString<32>>()
               : bytes == 64 ? key_type_id<ShortString<64>>()
                             : key_type_id<ShortString<128>>();
    };
    const auto text_of = [](std::size_t bytes, const std::uint64_t* payload) {
        return bytes == 32   ? format_short_string<32>(payload)
               : bytes == 64 ? format_short_string<64>(payload)
                             : format_short_string<128>(payload);
    };

    // Every length: 32 bytes of chars and count up to 31 chars, 64 up to 63, 128 up to 127,
    // padding zeroed.
    for (std::size_t size = 0; size <= 127; ++size) {
        const std::string chars = counted_chars(size);
        const std::size_t bytes = size < 32 ? 32 : size < 64 ? 64 : 128;
        std::vector<std::uint64_t> dirty(kRoom, ~std::uint64_t{0});
        const PreparedKey<std::string> key{chars};
        CHECK(key.words() == 1 + bytes / 8);
        CHECK(key.fill(dirty.data(), 2) == dirty.data() + 1 + bytes / 8);
        CHECK(qprof::detail::head_depth(dirty[0]) == 2);
        CHECK(head_site(dirty[0]) == type_of(bytes));
        CHECK(text_of(bytes, dirty.data() + 1) == chars);
        std::vector<std::uint64_t> clean(kRoom, 0);
        PreparedKey<std::string_view>{chars}.fill(clean.data(), 2);
        CHECK(std::equal(dirty.begin(), dirty.begin() + 1 + bytes / 8, clean.begin()));
    }
    CHECK(type_of(32) != type_of(64));
    CHECK(type_of(64) != type_of(128));

    // Longer, up to 4,096 chars: the count, then the chars zero-padded to a word.
    for (const std::size_t size : {128, 129, 135, 136, 1000, 4095, 4096}) {
        const std::string chars = counted_chars(size);
        const std::size_t words = 2 + (size + 7) / 8;
        std::vector<std::uint64_t> dirty(kRoom, ~std::uint64_t{0});
        const PreparedKey<std::string> key{chars};
        CHECK(key.words() == words);
        CHECK(key.fill(dirty.data(), 1) == dirty.data() + words);
        CHECK(head_site(dirty[0]) == key_type_id<CountedChars>());
        CHECK(dirty[1] == size);
        CHECK(std::string_view{reinterpret_cast<const char*>(dirty.data() + 2), size} == chars);
        const auto* padding = reinterpret_cast<const unsigned char*>(dirty.data() + 2) + size;
        CHECK(std::all_of(padding, reinterpret_cast<const unsigned char*>(dirty.data() + words),
                          [](unsigned char byte) { return byte == 0; }));
        std::vector<std::uint64_t> from_c_string(kRoom, 0);
        PreparedKey<const char*>{chars.c_str()}.fill(from_c_string.data(), 1);
        CHECK(std::equal(dirty.begin(), dirty.begin() + words, from_c_string.begin()));
    }
    CHECK(key_type_id<CountedChars>() != type_of(128));

    std::vector<std::uint64_t> words(kRoom, 0);
    PreparedKey<std::string>{with_nul}.fill(words.data(), 0);
    CHECK(format_short_string<32>(words.data() + 1) == with_nul);

    const PreparedKey<std::string> interned{too_long};
    CHECK(interned.words() == 2);
    CHECK(interned.fill(words.data(), 0) == words.data() + 2);
    CHECK(head_site(words[0]) != key_type_id<CountedChars>());
    CHECK(qprof::detail::interned_key_text(static_cast<std::uint32_t>(words[1])) == too_long);
    // A longer view or C string is found by its chars among the std::string keys: the same id.
    std::uint64_t viewed[2]{};
    PreparedKey<std::string_view>{too_long}.fill(viewed, 0);
    CHECK(viewed[1] == words[1]);
    std::uint64_t c_string[2]{};
    PreparedKey<const char*>{too_long.c_str()}.fill(c_string, 0);
    CHECK(c_string[1] == words[1]);

    qprof::Session session{options_with_keys()};
    const std::string longest = counted_chars(127);
    const std::string counted = counted_chars(300);
    const std::string_view view{"from a view"};
    const char* null_chars = nullptr;
    {
        PROFILE_QUERY(empty, std::string{});
        PROFILE_QUERY_HIT(longest_kept, longest);
        PROFILE_QUERY_HIT(counted_one, counted);
        PROFILE_QUERY_HIT(interned_one, too_long);
        PROFILE_QUERY_HIT(nul, with_nul);
        PROFILE_QUERY_HIT(viewed, view);
        PROFILE_QUERY_HIT(literal, "a literal");
        PROFILE_QUERY_HIT(null_pointer, null_chars);
        PROFILE_QUERY_HIT(same_text, std::string{"a literal"});
        PROFILE_QUERY_HIT(counted_view, std::string_view{counted});
        PROFILE_QUERY_HIT(long_view, std::string_view{too_long});
    }
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{
              "longest_kept[" + longest + "]", "counted_one[" + counted + "]",
              "interned_one[" + too_long + "]", "nul[" + with_nul + "]", "viewed[from a view]",
              "literal[a literal]", "null_pointer[nullptr]", "same_text[a literal]",
              "counted_view[" + counted + "]", "long_view[" + too_long + "]", "empty"});
    // One text for "a literal", whichever type of string recorded it, and one for the counted
    // chars; "" is a text too.
    CHECK(session.trace().key_texts.size() == 8);
}
