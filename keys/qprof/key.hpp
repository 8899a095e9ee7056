// Query keys: how qprof hashes, compares and prints the key a query is asked for, so that a
// plain aggregate works as a key with no user code.
//
//   struct DefId { std::uint32_t krate; std::uint32_t index; };   // no hash, no ==, no <<
//
//   std::unordered_map<DefId, Ty, qprof::KeyHash<DefId>, qprof::KeyEqual<DefId>> types;
//   qprof::key_text(DefId{0, 42});                                 // "DefId{0, 42}"
//
//   // A key qprof cannot print by itself gets a formatter:
//   template <> struct qprof::KeyFormatter<Span> {
//       static void format(std::string& out, const Span& span) {
//           out += span.file;
//           out += ':';
//           qprof::format_key(out, span.line);
//       }
//   };
//
// KeyHash and KeyEqual run on every cache lookup, so they are inline and never allocate.
// A key's own std::hash and operator== win over the field-wise versions; a type whose == ignores
// some fields must then also specialise std::hash, or equal keys would hash differently.
// Boost.PFR cannot reflect aggregates with base classes, C array members or bit-fields; such keys
// need std::hash, == and a KeyFormatter (without one they print as TypeName{?}).
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <algorithm>
#include <boost/pfr/core.hpp>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <qprof/key_format.hpp>
#include <ranges>
#include <tuple>
#include <type_traits>
#include <utility>

namespace qprof {

template <typename Key>
struct KeyHash;

template <typename Key>
struct KeyEqual;

}  // namespace qprof

namespace qprof::detail {

template <typename>
inline constexpr bool always_false = false;

// ---- Hashing -----------------------------------------------------------------------------

// std::hash<Key> is enabled: a disabled specialisation cannot be default-constructed.
template <typename Key>
concept StdHashable = std::is_default_constructible_v<std::hash<Key>> && requires(const Key& key) {
    { std::hash<Key>{}(key) } -> std::convertible_to<std::size_t>;
};

// The 64-bit hash_mix of boost::hash_combine (Boost 1.81): std::hash of an integer is the
// integer itself, so without mixing DefId{0, 1} and DefId{1, 0} would share low bits.
constexpr std::uint64_t hash_mix(std::uint64_t x) noexcept {
    constexpr std::uint64_t m = 0xe9846af9b1a615d;
    x ^= x >> 32;
    x *= m;
    x ^= x >> 32;
    x *= m;
    x ^= x >> 28;
    return x;
}

constexpr std::size_t hash_combine(std::size_t seed, std::size_t value) noexcept {
    return static_cast<std::size_t>(hash_mix(seed + 0x9e3779b9 + value));
}

// A key's hash from its parts': std::hash<Key> when it is enabled, else field by field for
// aggregates and element by element for pairs, tuples, optionals and ranges, each part hashed
// by PartHash<Part>. KeyHash is this with KeyHash for the parts; the key caches use it with
// their own hash of strings (qprof/detail/key_cache.hpp).
template <template <typename> class PartHash, typename Key>
std::size_t hash_by_parts(const Key& key) {
    const auto part = [](const auto& value) {
        return PartHash<std::remove_cvref_t<decltype(value)>>{}(value);
    };
    if constexpr (StdHashable<Key>) {
        return std::hash<Key>{}(key);
    } else if constexpr (Reflectable<Key>) {
        std::size_t seed = 0;
        boost::pfr::for_each_field(
            key, [&seed, &part](const auto& field) { seed = hash_combine(seed, part(field)); });
        return seed;
    } else if constexpr (TupleLike<Key>) {
        return std::apply(
            [&part](const auto&... element) {
                std::size_t seed = 0;
                ((seed = hash_combine(seed, part(element))), ...);
                return seed;
            },
            key);
    } else if constexpr (Optional<Key>) {
        return key.has_value() ? hash_combine(1, part(*key)) : 0;
    } else if constexpr (Range<Key>) {
        std::size_t seed = 0;
        for (const auto& element : key) seed = hash_combine(seed, part(element));
        return seed;
    } else {
        static_assert(always_false<Key>,
                      "qprof: key type cannot be hashed: give it a std::hash specialisation, "
                      "or make it an aggregate of hashable fields");
        return 0;
    }
}

// ---- Equality ----------------------------------------------------------------------------

template <typename T>
concept HasEqualOperator = requires(const T& a, const T& b) {
    { a == b } -> std::convertible_to<bool>;
};

// `a == b` compiles for std::pair, std::tuple and the containers whatever their elements are,
// then fails inside the library: look at the elements too.
template <typename T>
constexpr bool equality_usable();

template <typename Tuple, std::size_t... I>
constexpr bool elements_equality_usable(std::index_sequence<I...>) {
    return (equality_usable<std::tuple_element_t<I, Tuple>>() && ...);
}

template <typename T>
constexpr bool equality_usable() {
    if constexpr (!HasEqualOperator<T>) {
        return false;
    } else if constexpr (TupleLike<T>) {
        return elements_equality_usable<T>(std::make_index_sequence<std::tuple_size_v<T>>{});
    } else if constexpr (Optional<T>) {
        return equality_usable<typename T::value_type>();
    } else if constexpr (Range<T>) {
        return equality_usable<std::ranges::range_value_t<const T>>();
    } else {
        return true;
    }
}

template <template <typename> class PartEqual, typename Aggregate, std::size_t... I>
bool fields_equal(const Aggregate& a, const Aggregate& b, std::index_sequence<I...>) {
    return (PartEqual<std::remove_cvref_t<decltype(boost::pfr::get<I>(a))>>{}(
                boost::pfr::get<I>(a), boost::pfr::get<I>(b)) &&
            ...);
}

template <template <typename> class PartEqual, typename Tuple, std::size_t... I>
bool elements_equal(const Tuple& a, const Tuple& b, std::index_sequence<I...>) {
    return (PartEqual<std::tuple_element_t<I, Tuple>>{}(std::get<I>(a), std::get<I>(b)) && ...);
}

// Whether two keys are equal, from their parts': `a == b` when it compiles, else field by
// field for aggregates and element by element for pairs, tuples, optionals and ranges, each
// part compared by PartEqual<Part>. KeyEqual is this with KeyEqual for the parts; the key
// caches use it with their own comparison of strings (qprof/detail/key_cache.hpp).
template <template <typename> class PartEqual, typename Key>
bool equal_by_parts(const Key& a, const Key& b) {
    if constexpr (equality_usable<Key>()) {
        return a == b;
    } else if constexpr (Reflectable<Key>) {
        return fields_equal<PartEqual>(a, b,
                                       std::make_index_sequence<boost::pfr::tuple_size_v<Key>>{});
    } else if constexpr (TupleLike<Key>) {
        return elements_equal<PartEqual>(a, b, std::make_index_sequence<std::tuple_size_v<Key>>{});
    } else if constexpr (Optional<Key>) {
        using Value = typename Key::value_type;
        return a.has_value() == b.has_value() && (!a.has_value() || PartEqual<Value>{}(*a, *b));
    } else if constexpr (Range<Key>) {
        return std::ranges::equal(a, b, PartEqual<std::ranges::range_value_t<const Key>>{});
    } else {
        static_assert(always_false<Key>,
                      "qprof: key type cannot be compared: give it an operator==, "
                      "or make it an aggregate of comparable fields");
        return false;
    }
}

}  // namespace qprof::detail

namespace qprof {

// Hash functor for std::unordered_map and qprof::Query: std::hash<Key> when it is enabled,
// else field by field for aggregates and element by element for pairs, tuples, optionals
// and ranges.
template <typename Key>
struct KeyHash {
    std::size_t operator()(const Key& key) const { return detail::hash_by_parts<KeyHash>(key); }
};

// Equality functor to go with KeyHash: `a == b` when it compiles, else field by field for
// aggregates and element by element for pairs, tuples, optionals and ranges.
template <typename Key>
struct KeyEqual {
    bool operator()(const Key& a, const Key& b) const {
        return detail::equal_by_parts<KeyEqual>(a, b);
    }
};

}  // namespace qprof

#endif  // QPROF_DETAIL_CXX20
