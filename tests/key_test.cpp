// Query keys: the text of each kind of key, and hashing and comparing keys with no user code.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <qprof/key.hpp>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

using qprof::key_text;

namespace toyc {

struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

struct Item {
    DefId id;
    std::string name;
    std::vector<int> generics;
};

template <typename T>
struct Pair {
    T first;
    T second;
};

// Not an aggregate, no operator<<: printed through the KeyFormatter below.
class Span {
  public:
    Span(std::string file, int line) : file_(std::move(file)), line_(line) {}
    const std::string& file() const { return file_; }
    int line() const { return line_; }

  private:
    std::string file_;
    int line_;
};

struct Located {
    Span span;
    DefId id;
};

}  // namespace toyc

template <>
struct qprof::KeyFormatter<toyc::Span> {
    static void format(std::string& out, const toyc::Span& span) {
        out += span.file();
        out += ':';
        qprof::format_key(out, span.line());
    }
};

namespace {

enum class Kind : std::uint8_t { fn = 2, ty = 3 };
enum Letter : char { letter_a = 'A' };
enum class Mode { fast, slow };
enum Level { low, high };

std::ostream& operator<<(std::ostream& out, Mode mode) {
    return out << (mode == Mode::fast ? "fast" : "slow");
}
std::ostream& operator<<(std::ostream& out, Level level) {
    return out << (level == low ? "low" : "high");
}

class Symbol {
  public:
    explicit Symbol(std::string text) : text_(std::move(text)) {}
    friend std::ostream& operator<<(std::ostream& out, const Symbol& symbol) {
        return out << '`' << symbol.text_ << '`';
    }

  private:
    std::string text_;
};

// An aggregate with its own operator<<: that wins over the field-wise text.
struct Version {
    int major;
    int minor;
};
std::ostream& operator<<(std::ostream& out, const Version& version) {
    return out << 'v' << version.major << '.' << version.minor;
}

// An aggregate with its own formatter: that wins over everything.
struct Hidden {
    int secret;
};

class Opaque {
  public:
    int value() const { return value_; }

  private:
    int value_ = 0;
};

struct Base {
    int id;
};
struct Derived : Base {
    int extra;
};
struct WithArray {
    int lanes[4];
};
struct Packed {
    std::uint32_t krate : 8;
    std::uint32_t index : 24;
};
union Word {
    std::uint32_t bits;
    float number;
};
struct Unit {};

// operator== ignores `note`, and std::hash agrees: both must be used instead of the fields.
struct Named {
    int id;
    std::string note;
    bool operator==(const Named& other) const { return id == other.id; }
};

// operator== only, ignoring `generation`.
struct Versioned {
    int id;
    int generation;
    bool operator==(const Versioned& other) const { return id == other.id; }
};

// One formatter for a whole family of types, through the Enable parameter.
struct Node {
    std::string name;
};
struct FnNode : Node {};
struct TyNode : Node {};

}  // namespace

template <>
struct qprof::KeyFormatter<Hidden> {
    static void format(std::string& out, const Hidden&) { out += "<hidden>"; }
};

template <typename T>
struct qprof::KeyFormatter<T, std::enable_if_t<std::is_base_of_v<Node, T>>> {
    static void format(std::string& out, const Node& node) { out += "node " + node.name; }
};

template <>
struct std::hash<Named> {
    std::size_t operator()(const Named& named) const { return 1000 + std::size_t(named.id); }
};

TEST_CASE("strings print as themselves, without quotes", "[key]") {
    const char* pointer = "type_of";
    const char* null = nullptr;
    char buffer[8] = "ab";
    CHECK(key_text(std::string{"main"}) == "main");
    CHECK(key_text(std::string_view{"lib.rs"}) == "lib.rs");
    CHECK(key_text(pointer) == "type_of");
    CHECK(key_text("literal") == "literal");
    CHECK(key_text(buffer) == "ab");
    CHECK(key_text(null) == "nullptr");
    CHECK(key_text(std::string{}) == "");
}

TEST_CASE("numbers, bool and char print as in code", "[key]") {
    CHECK(key_text(42) == "42");
    CHECK(key_text(-7L) == "-7");
    CHECK(key_text(std::numeric_limits<std::uint64_t>::max()) == "18446744073709551615");
    CHECK(key_text(std::uint8_t{200}) == "200");
    CHECK(key_text(std::int8_t{-5}) == "-5");
    CHECK(key_text(true) == "true");
    CHECK(key_text(false) == "false");
    CHECK(key_text('x') == "x");
    CHECK(key_text(0.1) == "0.1");
    CHECK(key_text(1.0 / 3) == "0.3333333333333333");
    CHECK(key_text(1.5f) == "1.5");
    CHECK(key_text(1e300) == "1e+300");
    CHECK(key_text(2.0) == "2");
}

TEST_CASE("enums print through their operator<<, else as their integer", "[key]") {
    CHECK(key_text(Kind::ty) == "3");
    CHECK(key_text(letter_a) == "65");  // not "A", though its underlying type is char
    CHECK(key_text(Mode::slow) == "slow");
    CHECK(key_text(high) == "high");
}

TEST_CASE("types with operator<< print through it", "[key]") {
    CHECK(key_text(Symbol{"Vec"}) == "`Vec`");
    CHECK(key_text(Version{1, 2}) == "v1.2");
}

TEST_CASE("pairs, tuples, optionals and ranges print their elements", "[key]") {
    CHECK(key_text(std::pair<int, std::string>{1, "main"}) == "(1, main)");
    CHECK(key_text(std::tuple<int, char, bool>{1, 'x', true}) == "(1, x, true)");
    CHECK(key_text(std::tuple<>{}) == "()");
    CHECK(key_text(std::optional<int>{3}) == "3");
    CHECK(key_text(std::optional<int>{}) == "none");
    CHECK(key_text(std::vector<int>{1, 2, 3}) == "[1, 2, 3]");
    CHECK(key_text(std::vector<int>{}) == "[]");
    CHECK(key_text(std::vector<std::string>{"a", "b"}) == "[a, b]");
    CHECK(key_text(std::map<int, std::string>{{1, "a"}, {2, "b"}}) == "[(1, a), (2, b)]");
    const int lanes[3] = {4, 5, 6};
    CHECK(key_text(lanes) == "[4, 5, 6]");
    CHECK(key_text(std::optional<toyc::DefId>{toyc::DefId{0, 1}}) == "DefId{0, 1}");
}

TEST_CASE("a long range is cut after 16 elements", "[key]") {
    std::vector<int> sixteen(16, 7);
    std::vector<int> seventeen(17, 7);
    const std::string sixteen_sevens = "7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7";
    CHECK(key_text(sixteen) == "[" + sixteen_sevens + "]");
    CHECK(key_text(seventeen) == "[" + sixteen_sevens + ", \xE2\x80\xA6]");
}

TEST_CASE("aggregates print as TypeName{fields}, with no user code", "[key]") {
    CHECK(key_text(toyc::DefId{0, 42}) == "DefId{0, 42}");
    CHECK(key_text(toyc::Item{{0, 3}, "main", {1, 2}}) == "Item{DefId{0, 3}, main, [1, 2]}");
    CHECK(key_text(toyc::Pair<toyc::DefId>{{1, 2}, {3, 4}}) ==
          "Pair<DefId>{DefId{1, 2}, DefId{3, 4}}");
    CHECK(key_text(Unit{}) == "Unit{}");
    CHECK(key_text(std::pair<toyc::DefId, int>{{0, 9}, 1}) == "(DefId{0, 9}, 1)");
}

TEST_CASE("a KeyFormatter specialisation wins, also inside other keys", "[key]") {
    CHECK(key_text(toyc::Span{"lib.rs", 12}) == "lib.rs:12");
    CHECK(key_text(Hidden{7}) == "<hidden>");
    CHECK(key_text(toyc::Located{{"main.rs", 3}, {0, 1}}) == "Located{main.rs:3, DefId{0, 1}}");
    CHECK(key_text(std::vector<toyc::Span>{{"a.rs", 1}}) == "[a.rs:1]");
    CHECK(key_text(FnNode{{"main"}}) == "node main");
    CHECK(key_text(TyNode{{"Vec"}}) == "node Vec");
}

TEST_CASE("keys qprof cannot print show their type name and never break the build", "[key]") {
    CHECK(key_text(Opaque{}) == "Opaque{?}");
    CHECK(key_text(Derived{{1}, 2}) == "Derived{?}");            // Boost.PFR: no base classes
    CHECK(key_text(WithArray{{1, 2, 3, 4}}) == "WithArray{?}");  // nor C array members
    CHECK(key_text(Packed{1, 2}) == "Packed{?}");                // nor bit-fields
    CHECK(key_text(Word{1}) == "Word{?}");
}

TEST_CASE("format_key appends to the text it is given", "[key]") {
    std::string out = "type_of(";
    qprof::format_key(out, toyc::DefId{0, 3});
    out += ')';
    CHECK(out == "type_of(DefId{0, 3})");
}

TEST_CASE("type names are unqualified, template arguments included", "[key]") {
    using qprof::detail::type_name;
    STATIC_REQUIRE(type_name<toyc::DefId>() == "DefId");
    STATIC_REQUIRE(type_name<toyc::Pair<toyc::DefId>>() == "Pair<DefId>");
    STATIC_REQUIRE(type_name<Opaque>() == "Opaque");  // in an anonymous namespace
    STATIC_REQUIRE(type_name<int>() == "int");
    STATIC_REQUIRE(type_name<std::vector<toyc::DefId>>() == "vector<DefId>");
}

TEST_CASE("aggregates hash and compare field by field with no user code", "[key]") {
    const qprof::KeyHash<toyc::DefId> hash;
    const qprof::KeyEqual<toyc::DefId> equal;
    CHECK(hash({0, 42}) == hash({0, 42}));
    CHECK(hash({0, 1}) != hash({1, 0}));
    CHECK(equal({0, 42}, {0, 42}));
    CHECK_FALSE(equal({0, 42}, {0, 43}));
    CHECK_FALSE(equal({1, 42}, {0, 42}));

    const qprof::KeyHash<toyc::Item> item_hash;
    const qprof::KeyEqual<toyc::Item> item_equal;
    const toyc::Item main{{0, 3}, "main", {1}};
    CHECK(item_hash(main) == item_hash(toyc::Item{{0, 3}, "main", {1}}));
    CHECK(item_equal(main, toyc::Item{{0, 3}, "main", {1}}));
    CHECK_FALSE(item_equal(main, toyc::Item{{0, 3}, "main", {2}}));
    CHECK_FALSE(item_equal(main, toyc::Item{{0, 3}, "mainx", {1}}));
}

TEST_CASE("field-wise hashes spread distinct keys", "[key]") {
    const qprof::KeyHash<toyc::DefId> hash;
    std::set<std::size_t> hashes;
    std::set<std::size_t> buckets;  // low bits, as a power-of-two table would use
    for (std::uint32_t krate = 0; krate < 16; ++krate) {
        for (std::uint32_t index = 0; index < 256; ++index) {
            hashes.insert(hash({krate, index}));
            buckets.insert(hash({krate, index}) & 4095);
        }
    }
    CHECK(hashes.size() == 16 * 256);
    CHECK(buckets.size() > 2500);  // 4096 keys over 4096 buckets fill about 63% of them
}

TEST_CASE("an aggregate key works in std::unordered_map with KeyHash and KeyEqual", "[key]") {
    std::unordered_map<toyc::DefId, int, qprof::KeyHash<toyc::DefId>, qprof::KeyEqual<toyc::DefId>>
        types;
    for (std::uint32_t index = 0; index < 1000; ++index) types[{index % 3, index}] = int(index);
    types[{1, 1}] = -1;  // an existing key: replaced, not added
    CHECK(types.size() == 1000);
    CHECK(types.at({1, 1}) == -1);
    CHECK(types.at({2, 998}) == 998);
    CHECK(types.find({0, 1}) == types.end());
}

TEST_CASE("a key's own std::hash and operator== win over its fields", "[key]") {
    const qprof::KeyHash<Named> hash;
    const qprof::KeyEqual<Named> equal;
    CHECK(hash({5, "first"}) == 1005);
    CHECK(equal({5, "first"}, {5, "second"}));
    CHECK_FALSE(equal({5, "first"}, {6, "first"}));

    std::unordered_map<Named, int, qprof::KeyHash<Named>, qprof::KeyEqual<Named>> notes;
    notes[{5, "first"}] = 1;
    notes[{5, "second"}] = 2;
    CHECK(notes.size() == 1);

    const qprof::KeyEqual<Versioned> versioned_equal;
    CHECK(versioned_equal({1, 1}, {1, 2}));
    CHECK_FALSE(versioned_equal({1, 1}, {2, 1}));
}

TEST_CASE("pairs, tuples, optionals and vectors of aggregates hash element by element", "[key]") {
    using Key = std::pair<toyc::DefId, int>;
    const qprof::KeyHash<Key> hash;
    const qprof::KeyEqual<Key> equal;
    CHECK(hash({{0, 1}, 2}) == hash({{0, 1}, 2}));
    CHECK(hash({{0, 1}, 2}) != hash({{0, 2}, 1}));
    CHECK(equal({{0, 1}, 2}, {{0, 1}, 2}));
    CHECK_FALSE(equal({{0, 1}, 2}, {{0, 1}, 3}));

    using Tuple = std::tuple<toyc::DefId, std::string>;
    CHECK(qprof::KeyHash<Tuple>{}({{0, 1}, "a"}) == qprof::KeyHash<Tuple>{}({{0, 1}, "a"}));
    CHECK_FALSE(qprof::KeyEqual<Tuple>{}({{0, 1}, "a"}, {{0, 1}, "b"}));

    using Maybe = std::optional<toyc::DefId>;
    CHECK(qprof::KeyEqual<Maybe>{}(Maybe{}, Maybe{}));
    CHECK_FALSE(qprof::KeyEqual<Maybe>{}(Maybe{toyc::DefId{0, 1}}, Maybe{}));
    CHECK(qprof::KeyHash<Maybe>{}(toyc::DefId{0, 1}) != qprof::KeyHash<Maybe>{}(Maybe{}));

    using Path = std::vector<toyc::DefId>;
    CHECK(qprof::KeyEqual<Path>{}({{0, 1}, {0, 2}}, {{0, 1}, {0, 2}}));
    CHECK_FALSE(qprof::KeyEqual<Path>{}({{0, 1}, {0, 2}}, {{0, 1}}));
    CHECK(qprof::KeyHash<Path>{}({{0, 1}, {0, 2}}) != qprof::KeyHash<Path>{}({{0, 2}, {0, 1}}));
}
