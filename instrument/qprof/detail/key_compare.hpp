// How the key caches (key_cache.hpp) hash and compare keys: KeyHash's and KeyEqual's rules, with
// strings hashed and compared inline, word by word; and whether comparing a key type may run
// the program's code, which a look-up then counts (t_comparing_keys).
#pragma once

#include <boost/pfr/core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <qprof/key.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace qprof::detail {

// The hash of a string's bytes, inline: std::hash of a std::string (murmur, out of line) was
// a third of the instructions of a cached lookup. Words are mixed as they are read; the last
// word overlaps the one before rather than being read byte by byte. Past 16 bytes, two lanes
// take alternate words, so that their multiplications overlap: one chain of them was two
// fifths of a cached lookup of a 50-byte path.
inline std::uint64_t hash_chars(const char* chars, std::size_t size) {
    auto mix = [](std::uint64_t hash, std::uint64_t word) {
        hash = (hash ^ word) * 0xff51afd7ed558ccdull;
        return hash ^ (hash >> 32);
    };
    auto load = [](const char* at, auto word) {
        std::memcpy(&word, at, sizeof word);
        return static_cast<std::uint64_t>(word);
    };
    std::uint64_t hash = size * 0x9E3779B97F4A7C15ull;
    if (size > 16) {
        std::uint64_t other = hash ^ 0xc4ceb9fe1a85ec53ull;
        const char* last = chars + size - 16;
        for (; chars < last; chars += 16) {
            hash = mix(hash, load(chars, std::uint64_t{}));
            other = mix(other, load(chars + 8, std::uint64_t{}));
        }
        hash = mix(hash, load(last, std::uint64_t{}));
        other = mix(other, load(last + 8, std::uint64_t{}));
        return mix(hash, other);
    }
    if (size >= 8) {  // the first word and the last, which may overlap it
        if (size > 8) {
            hash = mix(hash, load(chars, std::uint64_t{}));
        }
        return mix(hash, load(chars + size - 8, std::uint64_t{}));
    }
    if (size >= 4) {
        return mix(hash,
                   load(chars, std::uint32_t{}) << 32 | load(chars + size - 4, std::uint32_t{}));
    }
    if (size > 0) {
        const auto byte = [&](std::size_t i) {
            return std::uint64_t{static_cast<unsigned char>(chars[i])};
        };
        return mix(hash, byte(0) << 16 | byte(size / 2) << 8 | byte(size - 1));
    }
    return hash;
}

// Whether two strings of `size` bytes are equal, inline and word by word as hash_chars reads
// them: memcmp, a call through the PLT to a routine chosen for long buffers, was a third of a
// cached lookup of a 20-byte path. Past 16 bytes, two words a test.
inline bool equal_chars(const char* a, const char* b, std::size_t size) {
    auto differ = [](const char* x, const char* y, auto word) {
        auto other = word;
        std::memcpy(&word, x, sizeof word);
        std::memcpy(&other, y, sizeof other);
        return word != other;
    };
    if (size > 16) {  // 16 bytes a test, the last 16 overlapping the ones before
        const auto differ16 = [&](std::size_t at) {  // one branch for both words
            std::uint64_t x[2];
            std::uint64_t y[2];
            std::memcpy(x, a + at, sizeof x);
            std::memcpy(y, b + at, sizeof y);
            return ((x[0] ^ y[0]) | (x[1] ^ y[1])) != 0;
        };
        for (std::size_t at = 0; at + 16 < size; at += 16) {
            if (differ16(at)) {
                return false;
            }
        }
        return !differ16(size - 16);
    }
    if (size >= 8) {
        return !differ(a, b, std::uint64_t{}) &&
               !differ(a + size - 8, b + size - 8, std::uint64_t{});
    }
    if (size >= 4) {
        return !differ(a, b, std::uint32_t{}) &&
               !differ(a + size - 4, b + size - 4, std::uint32_t{});
    }
    for (std::size_t at = 0; at < size; ++at) {
        if (a[at] != b[at]) {
            return false;
        }
    }
    return true;
}

// The equality the key caches use: KeyEqual's rule (equal_by_parts), with std::string
// compared by equal_chars wherever it is a part that `==` does not already compare.
template <typename Key>
struct CacheEqual {
    bool operator()(const Key& a, const Key& b) const { return equal_by_parts<CacheEqual>(a, b); }
};
// Views, so that an entry's key (a view of its kept text, KeyEntry) compares with a key.
template <>
struct CacheEqual<std::string> {
    bool operator()(std::string_view a, std::string_view b) const {
        return a.size() == b.size() && equal_chars(a.data(), b.data(), a.size());
    }
};

template <typename Key>
bool cache_equal(const Key& a, const Key& b) {
    return CacheEqual<Key>{}(a, b);
}

// Whether comparing two keys of a type the caches keep may run the program's code: an
// operator== of its own, at any depth (a defaulted one included, which qprof cannot tell).
template <typename Key>
constexpr bool compares_with_program_code() {
    if constexpr (std::is_same_v<Key, std::string> || std::is_arithmetic_v<Key> ||
                  std::is_enum_v<Key>) {
        return false;
    } else if constexpr (TupleLike<Key>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (compares_with_program_code<std::tuple_element_t<I, Key>>() || ...);
        }
        (std::make_index_sequence<std::tuple_size_v<Key>>{});
    } else if constexpr (Reflectable<Key> && !HasEqualOperator<Key>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (compares_with_program_code<boost::pfr::tuple_element_t<I, Key>>() || ...);
        }
        (std::make_index_sequence<boost::pfr::tuple_size_v<Key>>{});
    } else {
        return true;
    }
}

// Look-ups this thread is in whose comparisons may run the program's code. A key that code
// records (an operator== that asks a query, or a formatter it calls) is then neither looked
// up in an InternedKeys nor kept: adding it could grow the very index being read.
inline thread_local constinit int t_comparing_keys = 0;

// Counts a look-up of keys of type Key in t_comparing_keys while it lasts, if their
// comparison may run the program's code; else nothing.
template <typename Key>
class Comparing {
  public:
    Comparing() {
        if constexpr (compares_with_program_code<Key>()) {
            ++t_comparing_keys;
        }
    }
    ~Comparing() {
        if constexpr (compares_with_program_code<Key>()) {
            --t_comparing_keys;
        }
    }
    Comparing(const Comparing&) = delete;
    Comparing& operator=(const Comparing&) = delete;
};

// The hash the key caches use: KeyHash's rule (hash_by_parts), with std::string hashed by
// hash_chars wherever it is a part. Keys equal by KeyEqual hash alike, as with KeyHash.
template <typename Key>
struct CacheHash {
    std::size_t operator()(const Key& key) const { return hash_by_parts<CacheHash>(key); }
};
// A view, as CacheEqual's.
template <>
struct CacheHash<std::string> {
    std::size_t operator()(std::string_view key) const {
        return static_cast<std::size_t>(hash_chars(key.data(), key.size()));
    }
};

template <typename Key>
std::size_t cache_hash(const Key& key) {
    return CacheHash<Key>{}(key);
}

}  // namespace qprof::detail
