// An open-addressing index of key entries by hash, which the interned keys of a type and each
// thread's cache of them are (key_cache.hpp), and what an entry holds: a distinct key and the
// id of its text, made once and never moved nor freed.
//
//   KeyIndex<Key> index;
//   index.insert(entry);                                        // under the key tables' lock
//   const KeyEntry<Key>* found = index.find(key, hash);        // a thread's own: no lock
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <qprof/detail/guarded_key_text.hpp>
#include <qprof/detail/key_compare.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace qprof::detail {

// Whether a key's text is the key itself, so that one copy of it is the entry's key and its
// text: a std::string, unless the program gave std::string a KeyFormatter.
template <typename Key>
inline constexpr bool kKeyIsItsText =
    formats_without_user_code<Key>() && std::is_same_v<Key, std::string>;

// What an entry keeps of a key: a view of its text for a key that is its own text (the text
// is kept until the process ends), else a copy.
template <typename Key>
using StoredKey = std::conditional_t<kKeyIsItsText<Key>, std::string_view, Key>;

// How look-ups take a key: a view by value (in registers: a view's two words written to
// memory and read back in one wider load stall the processor), any other key by reference.
template <typename Key>
using LookedUpKey = std::conditional_t<kKeyIsItsText<Key>, std::string_view, const Key&>;

// One distinct key and the id of its text; immutable once made.
template <typename Key>
struct KeyEntry {
    StoredKey<Key> key;
    std::size_t hash;
    std::uint32_t text_id;
};

// Memory for a key index's slots (key_record.cpp): from 64 KiB on, pages of their own, never the
// program's heap. An index that grows frees its old slots. glibc maps a block from 128 KiB on,
// and its free() of a block it mapped raises that size to the block's: the program's own large
// blocks then came from its heap, and freeing them there consolidated every small block it had
// freed (benchmarks/shallow_queries.cpp ran 4.5 M instructions more, 150 a distinct key, most
// of them freeing its own tables at its end). Null without memory.
void* allocate_key_slots(std::size_t bytes) noexcept;
void free_key_slots(void* slots, std::size_t bytes) noexcept;

// An open-addressing index of entries by hash, at most half full. Reading it needs no lock;
// the entries it points to belong to the key type's InternedKeys.
template <typename Key>
class KeyIndex {
  public:
    KeyIndex() = default;
    KeyIndex(const KeyIndex&) = delete;
    KeyIndex& operator=(const KeyIndex&) = delete;
    ~KeyIndex() {
        if (allocated()) {
            free_key_slots(slots_, capacity() * sizeof(Slot));
        }
    }

    const KeyEntry<Key>* find(LookedUpKey<Key> key, std::size_t hash) const {
        for (std::size_t i = first_slot(hash);; i = (i + 1) & mask_) {
            const Slot& slot = slots_[i];
            if (slot.entry == nullptr) {
                return nullptr;
            }
            if (slot.hash == hash && CacheEqual<Key>{}(slot.entry->key, key)) {
                return slot.entry;
            }
        }
    }

    // Adds an entry unless it is there already. Never throws: without memory to grow, the
    // entry is left out (a later call finds it again in InternedKeys). With a cap, an index
    // that is full is emptied first.
    void insert(const KeyEntry<Key>* entry, std::size_t cap = SIZE_MAX) {
        if (2 * (size_ + 1) > capacity()) {
            if (size_ + 1 > cap) {
                clear();
            } else if (!grow()) {
                return;
            }
        }
        std::size_t i = first_slot(entry->hash);
        for (; slots_[i].entry != nullptr; i = (i + 1) & mask_) {
            if (slots_[i].entry == entry) {
                return;
            }
        }
        slots_[i] = Slot{entry->hash, entry};
        ++size_;
    }

    std::size_t size() const { return size_; }

    KeyIndex* next_spare = nullptr;  // in InternedKeys' pool of caches no thread holds

  private:
    struct Slot {
        std::size_t hash = 0;
        const KeyEntry<Key>* entry = nullptr;
    };

    // Fibonacci hashing takes the top bits: std::hash of an integer is the integer itself.
    std::size_t first_slot(std::size_t hash) const {
        return static_cast<std::size_t>((hash * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
    }
    std::size_t capacity() const { return mask_ + 1; }

    bool allocated() const { return slots_ != &empty_slot_; }

    void clear() {
        for (std::size_t i = 0; i < capacity() && allocated(); ++i) {
            slots_[i] = Slot{};
        }
        size_ = 0;
    }

    bool grow() {
        const std::size_t old_capacity = capacity();
        auto* slots = static_cast<Slot*>(allocate_key_slots(2 * old_capacity * sizeof(Slot)));
        if (slots == nullptr) {
            return false;
        }
        std::uninitialized_fill_n(slots, 2 * old_capacity, Slot{});
        Slot* old = std::exchange(slots_, slots);
        mask_ = 2 * old_capacity - 1;
        shift_ = 64 - std::countr_zero(2 * old_capacity);
        size_ = 0;
        if (old != &empty_slot_) {
            for (std::size_t i = 0; i < old_capacity; ++i) {
                if (old[i].entry != nullptr) {
                    insert(old[i].entry);
                }
            }
            free_key_slots(old, old_capacity * sizeof(Slot));
        }
        return true;
    }

    // An index that has never grown probes this one empty slot, so find() needs no test.
    static inline Slot empty_slot_{};
    Slot* slots_ = &empty_slot_;
    std::size_t mask_ = 0;
    int shift_ = 63;  // 64 - log2 of the capacity, but at most 63
    std::size_t size_ = 0;
};

}  // namespace qprof::detail
