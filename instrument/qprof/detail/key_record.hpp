// Keys in the event stream, written with -Z profile-queries-and-keys, and for every activity
// that has an argument (PROFILE_ACTIVITY_ARG: the argument is the activity's key).
//
//   ScopeGuard scope{site, RecordKind::miss, [&](auto&& use) { use(id); }};   // key taken lazily
//
// A key record comes right before the record of the query it belongs to, at the same depth
// (for a scope, when the scope opens). Its head carries the key type's id where other
// records carry a site; then come the key's bytes, for a trivially copyable key of at most
// 32 bytes without pointers, formatted later by the collector; the chars of a string key of
// at most 127 (ShortString); a count and the chars of a longer string of at most 4,096
// (CountedChars), the one record whose length its type does not fix; or one word with the id
// of its interned text, for any other key (see intern_key for when that text is made).
//
// A key's formatter may run queries of its own (printing a DefId often does): an interned key
// is therefore formatted before its record is reserved, so the formatter's events go before
// the key record, as siblings of the query, and never into the reserved words.
//
// With -Z profile-queries-memory, what recording a key allocates (the copies a key of several
// arguments makes, its text, the caches) is qprof's own and not counted (OwnAllocations,
// alloc_counter.hpp); a query the formatter runs counts its allocations again (ScopeGuard).
#pragma once

#include <algorithm>
#include <atomic>
#include <boost/pfr.hpp>
#include <cstddef>
#include <cstring>
#include <qprof/detail/guarded_key_text.hpp>
#include <qprof/detail/key_cache.hpp>
#include <qprof/detail/scope_guard.hpp>
#include <qprof/detail/string_key_record.hpp>
#include <qprof/key.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace qprof::detail {

using KeyFormatFn = std::string (*)(const void* bytes);

struct KeyType {
    KeyFormatFn format = nullptr;  // null for interned keys and counted chars
    std::uint32_t words = 0;       // payload words after the head; 0 for counted chars
    bool counted = false;          // the payload: a count of chars, then the chars (CountedChars)
};

// Registers a key type once and returns its id, which `id` then holds (0 until then): made_once
// (key_cache.hpp).
std::uint32_t register_key_type(std::atomic<std::uint32_t>& id, KeyType type);
// Every key type registered so far, indexed by id (index 0 is unused).
std::vector<KeyType> registered_key_types();

std::uint32_t intern_key_text(std::string_view text);
std::string interned_key_text(std::uint32_t id);  // empty for an unknown id

// Whether a key's bytes alone say what it is, so that it can be copied now and formatted
// later: no pointer (its target may be gone by then) and no class qprof cannot see into.
template <typename Key>
constexpr bool holds_only_values() {
    if constexpr (std::is_arithmetic_v<Key> || std::is_enum_v<Key>) {
        return true;
    } else if constexpr (std::is_array_v<Key>) {
        return holds_only_values<std::remove_extent_t<Key>>();
    } else if constexpr (Reflectable<Key>) {  // an aggregate Boost.PFR can read
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (holds_only_values<boost::pfr::tuple_element_t<I, Key>>() && ...);
        }
        (std::make_index_sequence<boost::pfr::tuple_size_v<Key>>{});
    } else {
        return false;
    }
}

template <typename Key>
inline constexpr bool kKeyAsBytes = std::is_trivially_copyable_v<Key> &&
                                    sizeof(Key) <= 32 && holds_only_values<Key>();

// The most words after a key record's head: a ShortString<128> (docs/raw-format.md).
inline constexpr std::uint32_t kMaxKeyPayloadWords = 16;

// Words of the key record of a Key: the head, then its bytes or its text's id.
template <typename Key>
inline constexpr std::uint32_t kKeyRecordWords = 1 + (kKeyAsBytes<Key> ? (sizeof(Key) + 7) / 8 : 1);

template <typename Key>
std::string format_key_bytes(const void* bytes) {
    alignas(Key) unsigned char storage[sizeof(Key)];
    std::memcpy(storage, bytes, sizeof(Key));  // a trivially copyable Key now lives there
    return guarded_key_text(*std::launder(reinterpret_cast<const Key*>(storage))).text;
}

static_assert(sizeof(ShortString<128>) == kMaxKeyPayloadWords * 8);

// How the collector reads the records of a Key: formatted from its bytes or chars, or one
// word, the id of its interned text.
template <typename Key>
KeyType key_type_of() {
    if constexpr (std::is_same_v<Key, CountedChars>) {
        return {nullptr, 0, true};
    } else if constexpr (kIsShortString<Key>) {
        return {&format_short_string<sizeof(Key)>, sizeof(Key) / 8};
    } else if constexpr (kKeyAsBytes<Key>) {
        return {&format_key_bytes<Key>, kKeyRecordWords<Key> - 1};
    } else {
        return {nullptr, 1};
    }
}

template <typename Key>
inline constinit std::atomic<std::uint32_t> g_key_type_id{0};

template <typename Key>
std::uint32_t key_type_id() {
    if (const std::uint32_t id = g_key_type_id<Key>.load(std::memory_order_acquire); id != 0)
        [[likely]] {
        return id;
    }
    return register_key_type(g_key_type_id<Key>, key_type_of<Key>());
}

// Whether a key's text is its chars, made by qprof's own code: a std::string, a
// std::string_view or a C string for which the program wrote no KeyFormatter.
template <typename Key>
inline constexpr bool kTextIsChars =
    !HasKeyFormatter<Key> &&
    (std::is_same_v<Key, std::string> || std::is_same_v<Key, std::string_view> ||
     std::is_same_v<Key, const char*> || std::is_same_v<Key, char*>);

// Whether a string key is a null C string, whose text is "nullptr" (interned, not its chars).
template <typename Key>
bool is_null_string(const Key& key) {
    if constexpr (std::is_pointer_v<Key>) {
        return key == nullptr;
    } else {
        return false;
    }
}

// Whether a key owns all it holds, so a copy of it can stay in a table: no pointer or view
// whose target may be gone or reused by the next event.
template <typename Key>
constexpr bool owns_its_value() {
    if constexpr (std::is_arithmetic_v<Key> || std::is_enum_v<Key>) {
        return true;
    } else if constexpr (std::is_same_v<Key, std::string>) {
        return true;
    } else if constexpr (TupleLike<Key>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (owns_its_value<std::tuple_element_t<I, Key>>() && ...);
        }
        (std::make_index_sequence<std::tuple_size_v<Key>>{});
    } else if constexpr (Reflectable<Key>) {  // an aggregate Boost.PFR can read
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (owns_its_value<boost::pfr::tuple_element_t<I, Key>>() && ...);
        }
        (std::make_index_sequence<boost::pfr::tuple_size_v<Key>>{});
    } else {
        return false;
    }
}

// The id of a key's text. A key that owns its value is formatted once per distinct key and
// found again through the thread's cache (key_cache.hpp); any other (a pointer, a view, a
// class qprof cannot see into) is formatted every time, but for a string (PreparedKey). Formatters
// run with no lock held: they may record queries keyed by the same type.
template <typename Key>
std::uint32_t intern_key(const Key& key) {
    if constexpr (owns_its_value<Key>()) {
        return cached_key_text_id<Key>(key);
    } else {
        return intern_key_text(guarded_key_text(key).text);
    }
}

// A key made ready for its record: an interned key is formatted here, before any word of the
// record is reserved; a key kept as bytes, or a short string's chars, are copied when the
// record is filled.
template <typename Key>
class PreparedKey {
  public:
    explicit PreparedKey(const Key& key) : key_(key) {
        if constexpr (kTextIsChars<Key>) {
            if (!is_null_string(key)) {
                chars_ = key;
                if (chars_.size() <= kMaxCountedChars) {
                    chars_words_ = chars_payload_words(chars_.size());
                    return;
                }
                if constexpr (kKeyIsItsText<std::string>) {
                    // Longer still, any kind of string is found by its chars in the thread's
                    // cache of std::string keys: a view or a C string is not formatted at each
                    // record.
                    text_id_ = cached_key_text_id<std::string>(chars_);
                    return;
                }
            }
        }
        if constexpr (!kKeyAsBytes<Key>) {
            text_id_ = intern_key(key);
        }
    }

    // The words of the key record.
    std::uint32_t words() const {
        if constexpr (kTextIsChars<Key>) {
            if (chars_words_ != 0) {
                return 1 + chars_words_;
            }
        }
        return kKeyRecordWords<Key>;
    }

    // Writes the key record at `pos`; returns where the next record goes.
    std::uint64_t* fill(std::uint64_t* pos, std::uint32_t depth) const {
        if constexpr (kTextIsChars<Key>) {
            switch (chars_words_) {
                case 0:
                    break;
                case 4:
                    return fill_short<32>(pos, depth);
                case 8:
                    return fill_short<64>(pos, depth);
                case 16:
                    return fill_short<128>(pos, depth);
                default:  // more: CountedChars
                    pos[0] = record_head(RecordKind::key, depth, key_type_id<CountedChars>());
                    write_counted_chars(pos + 1, chars_.data(), chars_.size());
                    return pos + 1 + chars_words_;
            }
        }
        pos[0] = record_head(RecordKind::key, depth, key_type_id<Key>());
        if constexpr (kKeyAsBytes<Key>) {
            // Zeroed first, so that equal keys leave equal words whatever their padding.
            std::memset(pos + 1, 0, (kKeyRecordWords<Key> - 1) * sizeof(std::uint64_t));
            std::memcpy(pos + 1, &key_, sizeof(Key));
        } else {
            pos[1] = text_id_;
        }
        return pos + kKeyRecordWords<Key>;
    }

  private:
    template <std::size_t Bytes>
    std::uint64_t* fill_short(std::uint64_t* pos, std::uint32_t depth) const {
        pos[0] = record_head(RecordKind::key, depth, key_type_id<ShortString<Bytes>>());
        write_short_string<Bytes>(reinterpret_cast<unsigned char*>(pos + 1), chars_.data(),
                                  chars_.size());
        return pos + 1 + Bytes / 8;
    }

    const Key& key_;
    std::uint32_t text_id_ = 0;
    std::string_view chars_;         // a string's, when its text is its chars
    std::uint32_t chars_words_ = 0;  // the payload words of a string kept as its chars
};

// Called only while recording keys, on a thread attached to the current session.
template <typename Key>
void write_key_record(ThreadState& t, const Key& key) {
    const PreparedKey<Key> prepared{key};
    if (std::uint64_t* pos = reserve_words(t, prepared.words())) {
        publish(t, prepared.fill(pos, t.depth));
    }
}

template <typename KeyFn>
void record_hit(Site& site, KeyFn&& key) {
    if (ThreadState* t = recording_thread()) {
        const std::uint64_t kinds = selected_kinds(site, t->generation);
        if ((kinds & kind_bit(RecordKind::hit)) == 0) [[unlikely]] {
            return;
        }
        if (g_record_keys && (kinds & kind_bit(RecordKind::key)) != 0) [[unlikely]] {
            const OwnAllocations own;  // the key's copies and text are the profiler's
            key([t, &site](const auto& k) {
                // The key and the hit in one reservation: a hit has nothing in between.
                using Key = std::decay_t<decltype(k)>;
                const PreparedKey<Key> prepared{k};
                if (std::uint64_t* pos = reserve_words(*t, prepared.words() + 1)) {
                    publish(*t, fill_hit(prepared.fill(pos, t->depth), *t, site));
                }
            });
            return;
        }
        write_hit(*t, site);
    }
}

template <typename KeyFn>
ScopeGuard::ScopeGuard(Site& site, RecordKind kind, KeyFn&& key) {
    if (ThreadState* t = recording_thread()) {
        const std::uint64_t kinds = selected_kinds(site, t->generation);
        if ((kinds & kind_bit(kind)) == 0) [[unlikely]] {
            return;
        }
        // An activity's key is its argument, recorded whenever the activity is; a query's key
        // only with -Z profile-queries-and-keys, and when the selection keeps its keys. Not for
        // a scope too deep to be recorded.
        if ((kind == RecordKind::activity ||
             (g_record_keys && (kinds & kind_bit(RecordKind::key)) != 0)) &&
            t->depth < kMaxRecordedDepth) [[unlikely]] {
            const OwnAllocations own;  // the key's copies and text are the profiler's
            key([t](const auto& k) { write_key_record(*t, k); });
        }
        enter(*t, site, kind);
    }
}

// The key of a macro, handed on while the arguments still exist: one key as it is, not
// copied (an array, such as a string literal, as a pointer), several as a tuple of copies.
template <typename Key>
decltype(auto) make_key(const Key& key) {
    if constexpr (std::is_array_v<Key>) {
        return static_cast<const std::remove_extent_t<Key>*>(key);  // Key is char[N], not const
    } else {
        return (key);
    }
}
template <typename First, typename Second, typename... Rest>
std::tuple<std::decay_t<First>, std::decay_t<Second>, std::decay_t<Rest>...> make_key(
    const First& first, const Second& second, const Rest&... rest) {
    return {first, second, rest...};
}

}  // namespace qprof::detail
