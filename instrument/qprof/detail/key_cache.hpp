// Interned keys, and each thread's cache of them: a key the thread has seen is found again by
// one hash and one compare, with no lock.
//
//   const std::size_t hash = cache_hash(key);
//   if (const KeyEntry<Key>* entry = cache->find(key, hash)) return entry->text_id;   // no lock
//   return interned_keys<Key>().intern(key, hash, cache);   // the first time on this thread
//
// Every distinct key of a type is one KeyEntry, made once in the process and never moved nor
// freed, so a thread's cache holds only pointers to entries and its hashes: it never copies a
// key, and stays valid for any thread. A thread's cache goes back to a pool when the thread
// ends and the next thread takes it, warm; it is emptied when it reaches kMaxCachedKeys.
// A hit compares the key itself, so two keys with the same hash are never merged.
//
// Every key type's entries and the texts of all keys are guarded by one lock, the key tables'
// (key_record.cpp), which the fork handler holds across fork(). A key whose text runs none of
// the program's code (a std::string, an aggregate of numbers and strings) is looked up, given
// its text and added under one taking of it; a std::string key's chars are copied once, where
// they serve as the entry's key and as its text. Any other key is formatted between two takings
// of the lock, with no lock held. How keys are hashed and compared: key_compare.hpp; the
// index both the interned keys and a thread's cache are: key_index.hpp.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <new>
#include <qprof/detail/guarded_key_text.hpp>
#include <qprof/detail/key_compare.hpp>
#include <qprof/detail/key_index.hpp>
#include <qprof/key.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace qprof::detail {

// The key tables' lock (key_record.cpp). It guards the key types, the texts of interned keys
// and every key type's InternedKeys.
std::mutex& key_tables_mutex();

// Whether this thread holds the key tables' lock: the program's operator== runs under it (a key
// looked up in its type's InternedKeys), and a key it records must not take it again.
inline thread_local constinit bool t_holds_key_tables = false;

// The key tables' lock held, as the functions below that take it as their first argument need.
class KeyTablesLock {
  public:
    explicit KeyTablesLock(std::mutex& mutex) : lock_(mutex) { t_holds_key_tables = true; }
    ~KeyTablesLock() { t_holds_key_tables = false; }
    KeyTablesLock(const KeyTablesLock&) = delete;
    KeyTablesLock& operator=(const KeyTablesLock&) = delete;

  private:
    std::lock_guard<std::mutex> lock_;
};

// Runs `work` under the key tables' lock, taken unless this thread holds it already (a key
// recorded by the program's operator==, which runs under it).
template <typename Work>
auto under_key_tables(Work work) {
    if (t_holds_key_tables) {
        return work();
    }
    const KeyTablesLock lock{key_tables_mutex()};
    return work();
}

// What `made` holds, made by `make` (never T{}) under the key tables' lock the first time any
// thread asks, read with no lock after that. The fork handler holds the lock, so a child never
// finds it half made, nor waits for a thread it does not have, as it would on a function-local
// static's guard.
template <typename T, typename Make>
[[gnu::noinline]] T made_once(std::atomic<T>& made, Make make) {
    return under_key_tables([&] {
        T value = made.load(std::memory_order_relaxed);
        if (value == T{}) {
            value = make();
            made.store(value, std::memory_order_release);
        }
        return value;
    });
}

// The id of a key's text: the id of an equal text kept before, else of this one, kept from now
// on. The first takes the key tables' lock unless this thread holds it already, the second
// needs it held.
std::uint32_t intern_key_text(std::string_view text);
std::uint32_t intern_key_text(const KeyTablesLock& held, std::string_view text);

// A text kept with the key texts until the process ends, and its id.
struct KeptKeyText {
    std::string_view text;
    std::uint32_t id = 0;
};
// Keeps a copy of `text` under a new id, without looking for an equal text kept before: for a
// key that is its own text, which its key type's InternedKeys knows to be new.
KeptKeyText keep_key_text(const KeyTablesLock& held, std::string_view text);

// Keys a thread caches per key type before its cache is emptied and filled again: at most
// twice as many 16-byte slots, 4 MiB.
inline constexpr std::size_t kMaxCachedKeys = std::size_t{1} << 17;

// Every distinct key of one type the process has interned, and the pool of thread caches, all
// under the key tables' lock. Never destroyed: thread caches and entries outlive static
// teardown.
template <typename Key>
class InternedKeys {
  public:
    InternedKeys() = default;
    InternedKeys(const InternedKeys&) = delete;
    InternedKeys& operator=(const InternedKeys&) = delete;
    ~InternedKeys() = delete;

    // The id of the key's text, made if no thread has interned the key before; the entry goes
    // into `cache` (if any) too. A key whose text runs none of the program's code is looked up
    // and made under one lock. Any other key's formatter runs with no lock held: it may record
    // queries keyed by this same type, even on this thread.
    std::uint32_t intern(LookedUpKey<Key> key, std::size_t hash, KeyIndex<Key>* cache) {
        const KeyEntry<Key>* entry = nullptr;
        if constexpr (formats_without_user_code<Key>()) {
            const KeyTablesLock lock{key_tables_mutex()};
            entry = find(key, hash);
            if (entry == nullptr) {
                if constexpr (!kKeyIsItsText<Key>) {
                    if (!keepable(key)) [[unlikely]] {
                        return intern_key_text(lock, caught_key_text(key));
                    }
                }
                entry = add(lock, key, hash);
            }
        } else {
            {
                const KeyTablesLock lock{key_tables_mutex()};
                entry = find(key, hash);
            }
            if (entry == nullptr) {
                const GuardedKeyText text = guarded_key_text(key);
                const KeyTablesLock lock{key_tables_mutex()};
                if (!text.final) {  // a stand-in, for this call only
                    return intern_key_text(lock, text.text);
                }
                // Another thread, or a query the formatter recorded, may have added the key
                // meanwhile.
                entry = find(key, hash);
                if (entry == nullptr) {
                    if (!keepable(key)) [[unlikely]] {
                        return intern_key_text(lock, text.text);
                    }
                    entry = add_entry(lock, key, hash, intern_key_text(lock, text.text));
                }
            }
        }
        if (cache != nullptr) {
            cache->insert(entry, kMaxCachedKeys);
        }
        return entry->text_id;
    }

    // A cache for a thread that has none: one a thread that ended gave back, or a new one.
    // Null when there is no memory for one (the thread then interns without a cache).
    KeyIndex<Key>* take_cache() {
        const KeyTablesLock lock{key_tables_mutex()};
        if (KeyIndex<Key>* spare = spare_caches_) {
            spare_caches_ = spare->next_spare;
            return spare;
        }
        return new (std::nothrow) KeyIndex<Key>;
    }

    void give_back(KeyIndex<Key>* cache) {
        const KeyTablesLock lock{key_tables_mutex()};
        cache->next_spare = spare_caches_;
        spare_caches_ = cache;
    }

  private:
    // A key unequal to itself (a NaN in it: `nan != nan`) would be found by no look-up and
    // added again at every call, without end; it is not kept, its text found each time.
    static bool keepable(const Key& key) {
        const Comparing<Key> comparing;
        return cache_equal(key, key);
    }

    const KeyEntry<Key>* find(LookedUpKey<Key> key, std::size_t hash) const {
        const Comparing<Key> comparing;
        return index_.find(key, hash);
    }

    // A new key whose text runs none of the program's code, formatted here, under the lock
    // (so once in the process). A key that is its own text is copied once, as its text, and
    // the entry keeps a view of that copy: the text was new, as the key was.
    const KeyEntry<Key>* add(const KeyTablesLock& lock, LookedUpKey<Key> key, std::size_t hash) {
        if constexpr (kKeyIsItsText<Key>) {
            const KeptKeyText kept = keep_key_text(lock, key);
            return add_entry(lock, kept.text, hash, kept.id);
        } else {
            return add_entry(lock, key, hash, intern_key_text(lock, caught_key_text(key)));
        }
    }

    const KeyEntry<Key>* add_entry(const KeyTablesLock& /*held*/, const StoredKey<Key>& key,
                                   std::size_t hash, std::uint32_t text_id) {
        const KeyEntry<Key>* entry = &entries_.emplace_back(KeyEntry<Key>{key, hash, text_id});
        index_.insert(entry);
        return entry;
    }

    KeyIndex<Key> index_;
    std::deque<KeyEntry<Key>> entries_;  // a deque never moves what it holds
    KeyIndex<Key>* spare_caches_ = nullptr;
};

// Every key type's InternedKeys, made on its first use (made_once). Never destroyed: it
// outlives static teardown.
template <typename Key>
inline constinit std::atomic<InternedKeys<Key>*> g_interned_keys{nullptr};

template <typename Key>
InternedKeys<Key>& interned_keys() {
    InternedKeys<Key>* keys = g_interned_keys<Key>.load(std::memory_order_acquire);
    return keys != nullptr ? *keys
                           : *made_once(g_interned_keys<Key>, [] { return new InternedKeys<Key>; });
}

// The calling thread's cache of one key type. Constant-initialised and trivially destructible,
// so that it can be read at any time, even while the thread's destructors run.
template <typename Key>
struct ThreadKeyCache {
    KeyIndex<Key>* index = nullptr;
    bool ended = false;  // the thread is ending: it interns without a cache from now on
};
template <typename Key>
inline thread_local constinit ThreadKeyCache<Key> t_key_cache{};

// Calls `release` when the calling thread ends; false if its end has begun (then a cache
// taken now would never be given back).
bool release_at_thread_exit(void (*release)());

template <typename Key>
void give_back_key_cache() {
    ThreadKeyCache<Key>& cache = t_key_cache<Key>;
    cache.ended = true;
    if (cache.index != nullptr) {
        interned_keys<Key>().give_back(std::exchange(cache.index, nullptr));
    }
}

template <typename Key>
[[gnu::noinline]] KeyIndex<Key>* adopt_key_cache() {
    ThreadKeyCache<Key>& cache = t_key_cache<Key>;
    if (!cache.ended) {
        if (release_at_thread_exit(&give_back_key_cache<Key>)) {
            cache.index = interned_keys<Key>().take_cache();
        } else {
            cache.ended = true;
        }
    }
    return cache.index;
}

// The id of a key recorded by the program's code while this thread compares keys
// (t_comparing_keys): its text, neither looked up nor kept; intern_key_text takes no lock this
// thread holds.
template <typename Key>
[[gnu::noinline]] std::uint32_t key_text_id_while_comparing(LookedUpKey<Key> key) {
    return intern_key_text(guarded_key_text(key).text);
}

// The id of a key's text: one hash and a lookup in the thread's cache for a key the thread
// has seen, else interned (and formatted, the first time in the process). A key that is its
// own text is looked up by a view of its chars: any string with the same chars is that key.
template <typename Key>
std::uint32_t cached_key_text_id(LookedUpKey<Key> key) {
    const std::size_t hash = CacheHash<Key>{}(key);  // Key's hash, whatever kind of string
    KeyIndex<Key>* cache = t_key_cache<Key>.index;
    if (cache != nullptr) [[likely]] {
        const Comparing<Key> comparing;
        if (const KeyEntry<Key>* entry = cache->find(key, hash)) {
            return entry->text_id;
        }
    }
    if (t_comparing_keys != 0) [[unlikely]] {
        return key_text_id_while_comparing<Key>(key);
    }
    if (cache == nullptr) [[unlikely]] {
        cache = adopt_key_cache<Key>();
    }
    return interned_keys<Key>().intern(key, hash, cache);
}

}  // namespace qprof::detail
