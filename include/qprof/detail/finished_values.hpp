// The finished values of one shard of a qprof::Query, readable without the shard's mutex, so
// that a hit takes no lock and writes nothing shared: one hash (the caller's) and a probe.
//
//   FinishedValues<Key, Value, KeyEqual<Key>> values;   // one per shard
//   values.insert(hash, key, value);   // under the shard's mutex: a value computed or found
//   values.erase(hash, key);           // under the shard's mutex: invalidate()
//   if (std::optional<Value> value = values.find(hash, key)) ...   // any thread, no lock
//
// Only for small, trivially copyable keys and values (kLockFreeHits): each slot is a seqlock
// whose words are copied out with atomic loads and used only if the slot's sequence did not
// change meanwhile, so a reader never sees a half-written entry, and a key or value is only
// ever a copy of bytes, never a pointer into memory a writer may free. The shard's map stays
// the authority: find() may miss an entry that is there (being written, or emptied to make
// room), and the caller then asks the map under the mutex.
//
// A table outgrown is kept until the Query ends, as a reader may still be probing it; each is
// at most half the size of the next, so those kept never take more than the table in use.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>

namespace qprof::detail {

// Whether a Query<Key, Value> answers hits without its mutex: both copyable as bytes, and a
// slot (its head word, the key, the value) within a cache line.
template <typename Key, typename Value>
inline constexpr bool kLockFreeHits =
    std::is_trivially_copyable_v<Key>&& std::is_trivially_copyable_v<Value> &&
    sizeof(Key) + sizeof(Value) <= 56;

template <typename Key, typename Value, typename Equal>
class FinishedValues {
  public:
    FinishedValues() = default;
    FinishedValues(const FinishedValues&) = delete;
    FinishedValues& operator=(const FinishedValues&) = delete;

    // The value cached for `key`, or nullopt if this table cannot say now (ask the map).
    // `hash` is well mixed in its top bits, which choose the slot.
    std::optional<Value> find(std::uint64_t hash, const Key& key) const {
        const Table* table = current_.load(std::memory_order_acquire);
        if (table == nullptr) {
            return std::nullopt;
        }
        const std::uint32_t tag = tag_of(hash);
        std::size_t index = table->index_of(tag);
        for (std::size_t probes = 0; probes <= table->mask; ++probes) {
            const Slot& slot = table->slots[index];
            const std::uint64_t head = slot.head.load(std::memory_order_acquire);
            const unsigned state = state_of(head);
            if (state == kEmpty || state == kWriting) {
                return std::nullopt;
            }
            if (state == kLive && tag_of_head(head) == tag) {
                std::uint64_t words[kWords];
                for (std::size_t word = 0; word < kWords; ++word) {
                    // Acquire: the head's second load below cannot move before these.
                    words[word] = slot.words[word].load(std::memory_order_acquire);
                }
                if (slot.head.load(std::memory_order_relaxed) != head) {
                    return std::nullopt;  // written meanwhile: the copy may be torn
                }
                if (Equal{}(from_words<Key>(words), key)) {
                    return from_words<Value>(words + kKeyWords);
                }
            }
            index = (index + 1) & table->mask;
        }
        return std::nullopt;
    }

    // Caches `value` for `key` unless it is there already (writers hold the shard's mutex).
    // Without memory for a larger table it caches nothing: the map still answers.
    void insert(std::uint64_t hash, const Key& key, const Value& value) {
        Table* table = room_for_one();
        if (table == nullptr) {
            return;
        }
        const std::uint32_t tag = tag_of(hash);
        std::size_t index = table->index_of(tag);
        std::size_t free_index = table->mask + 1;  // the first erased slot of the probe
        for (;; index = (index + 1) & table->mask) {
            const Slot& slot = table->slots[index];
            const std::uint64_t head = slot.head.load(std::memory_order_relaxed);
            if (state_of(head) == kEmpty) {
                break;
            }
            if (state_of(head) == kErased && free_index > table->mask) {
                free_index = index;
            } else if (state_of(head) == kLive && tag_of_head(head) == tag && holds(slot, key)) {
                return;
            }
        }
        if (free_index > table->mask) {
            free_index = index;
            ++table->used;
        }
        std::uint64_t words[kWords] = {};
        std::memcpy(words, &key, sizeof(Key));
        std::memcpy(words + kKeyWords, &value, sizeof(Value));
        write(table->slots[free_index], tag, words);
        ++live_;
    }

    // Forgets `key` (writers hold the shard's mutex).
    void erase(std::uint64_t hash, const Key& key) {
        Table* table = current_.load(std::memory_order_relaxed);
        if (table == nullptr) {
            return;
        }
        const std::uint32_t tag = tag_of(hash);
        std::size_t index = table->index_of(tag);
        for (std::size_t probes = 0; probes <= table->mask; ++probes) {
            Slot& slot = table->slots[index];
            const std::uint64_t head = slot.head.load(std::memory_order_relaxed);
            if (state_of(head) == kEmpty) {
                return;
            }
            if (state_of(head) == kLive && tag_of_head(head) == tag && holds(slot, key)) {
                // A new sequence: a reader that copied the words before sees the change.
                slot.head.store(next_head(head, tag, kErased), std::memory_order_release);
                --live_;
                return;
            }
            index = (index + 1) & table->mask;
        }
    }

  private:
    static constexpr std::size_t kKeyWords = (sizeof(Key) + 7) / 8;
    static constexpr std::size_t kWords = kKeyWords + (sizeof(Value) + 7) / 8;
    // A slot's head word: the top half of its key's hash (the tag), a sequence that changes
    // with every write, and the slot's state in the two low bits.
    static constexpr unsigned kEmpty = 0;   // never used since the table was made or tidied
    static constexpr unsigned kErased = 1;  // a probe goes on past it
    static constexpr unsigned kLive = 2;
    static constexpr unsigned kWriting = 3;  // the words are being changed
    static constexpr unsigned kFirstBits = 4;
    static constexpr unsigned kMaxBits = 32;  // the tag chooses the slot

    struct Slot {
        std::atomic<std::uint64_t> head{0};
        std::atomic<std::uint64_t> words[kWords]{};
    };
    struct Table {
        std::size_t index_of(std::uint32_t tag) const { return tag >> (32 - bits); }

        unsigned bits = 0;
        std::size_t mask = 0;  // slot count - 1
        std::size_t used = 0;  // slots not empty (live or erased), writer side only
        std::unique_ptr<Slot[]> slots;
        std::unique_ptr<Table> outgrown;  // the table before, for readers still in it
    };

    static std::uint32_t tag_of(std::uint64_t hash) {
        return static_cast<std::uint32_t>(hash >> 32);
    }
    static std::uint32_t tag_of_head(std::uint64_t head) {
        return static_cast<std::uint32_t>(head >> 32);
    }
    static unsigned state_of(std::uint64_t head) { return static_cast<unsigned>(head & 3); }
    // The head after one more change of the slot.
    static std::uint64_t next_head(std::uint64_t head, std::uint32_t tag, unsigned state) {
        const std::uint64_t sequence = ((head & 0xffffffffu) >> 2) + 1;
        return std::uint64_t{tag} << 32 | (sequence & 0x3fffffffu) << 2 | state;
    }

    template <typename T>
    static T from_words(const std::uint64_t* words) {
        alignas(T) unsigned char storage[sizeof(T)];
        std::memcpy(storage, words, sizeof(T));  // a trivially copyable T now lives there
        return *std::launder(reinterpret_cast<const T*>(storage));
    }

    // Writer side: the key a live slot holds is `key`.
    static bool holds(const Slot& slot, const Key& key) {
        std::uint64_t words[kKeyWords];
        for (std::size_t word = 0; word < kKeyWords; ++word) {
            words[word] = slot.words[word].load(std::memory_order_relaxed);
        }
        return Equal{}(from_words<Key>(words), key);
    }

    // A seqlock write: the state `writing`, the words, then the live head with a new sequence.
    static void write(Slot& slot, std::uint32_t tag, const std::uint64_t* words) {
        const std::uint64_t head = slot.head.load(std::memory_order_relaxed);
        const std::uint64_t writing = next_head(head, tag_of_head(head), kWriting);
        slot.head.store(writing, std::memory_order_relaxed);
        for (std::size_t word = 0; word < kWords; ++word) {
            // Release: the state `writing` is visible before any of the new words.
            slot.words[word].store(words[word], std::memory_order_release);
        }
        slot.head.store(next_head(writing, tag, kLive), std::memory_order_release);
    }

    // Puts an entry of a table being built into the first empty slot of its probe.
    static void place(Table& table, std::uint32_t tag, const std::uint64_t* words) {
        std::size_t index = table.index_of(tag);
        while (state_of(table.slots[index].head.load(std::memory_order_relaxed)) != kEmpty) {
            index = (index + 1) & table.mask;
        }
        ++table.used;
        write(table.slots[index], tag, words);
    }

    // The table with room for one more entry (at most half its slots used, so that a probe
    // always ends at an empty slot): the one in use, that one emptied when erased slots fill
    // it, or a larger one.
    Table* room_for_one() {
        Table* table = current_.load(std::memory_order_relaxed);
        if (table != nullptr && (table->used + 1) * 2 <= table->mask + 1) {
            return table;
        }
        if (table != nullptr && (live_ + 1) * 8 <= (table->mask + 1) * 3) {
            empty(*table);
            return table;
        }
        if (table != nullptr && table->bits == kMaxBits) {
            return nullptr;
        }
        return grow(table == nullptr ? kFirstBits : table->bits + 1);
    }

    // A new table of 2^bits slots holding every live entry, published to readers; the one
    // before stays allocated for readers still probing it.
    Table* grow(unsigned bits) {
        std::unique_ptr<Table> table{new (std::nothrow) Table};
        if (table == nullptr) {
            return nullptr;
        }
        table->slots.reset(new (std::nothrow) Slot[std::size_t{1} << bits]());
        if (table->slots == nullptr) {
            return nullptr;
        }
        table->bits = bits;
        table->mask = (std::size_t{1} << bits) - 1;
        if (newest_ != nullptr) {
            for (std::size_t index = 0; index <= newest_->mask; ++index) {
                const Slot& slot = newest_->slots[index];
                const std::uint64_t head = slot.head.load(std::memory_order_relaxed);
                if (state_of(head) == kLive) {
                    place(*table, tag_of_head(head), copy_words(slot).data());
                }
            }
        }
        table->outgrown = std::move(newest_);
        newest_ = std::move(table);
        current_.store(newest_.get(), std::memory_order_release);
        return newest_.get();
    }

    // Empties every slot of the table in use, in place and without allocating: its entries
    // come back as they are found under the mutex again (Query caches every hit it finds
    // there). Readers meanwhile miss and ask the map.
    void empty(Table& table) {
        for (std::size_t index = 0; index <= table.mask; ++index) {
            Slot& slot = table.slots[index];
            const std::uint64_t head = slot.head.load(std::memory_order_relaxed);
            if (state_of(head) != kEmpty) {
                slot.head.store(next_head(head, 0, kEmpty), std::memory_order_release);
            }
        }
        table.used = 0;
        live_ = 0;
    }

    static std::array<std::uint64_t, kWords> copy_words(const Slot& slot) {
        std::array<std::uint64_t, kWords> words{};
        for (std::size_t word = 0; word < kWords; ++word) {
            words[word] = slot.words[word].load(std::memory_order_relaxed);
        }
        return words;
    }

    std::atomic<Table*> current_{nullptr};
    std::unique_ptr<Table> newest_;  // the table in use, owning those it outgrew
    std::size_t live_ = 0;           // writer side only
};

}  // namespace qprof::detail
