// The tables behind key records: key types, and the interned texts of keys formatted at once.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <qprof/detail/key_record.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "fork_safety.hpp"
#include "mapped_pages.hpp"
#include "text_ids.hpp"

namespace qprof::detail {

bool g_record_keys = false;

namespace {

// Chars kept until the process ends, in blocks that are never freed: a key's text costs no
// allocation of its own (an allocation was a fifth of the instructions that interning a string
// key took), and the program's heap holds a block per 64 KiB of texts, not one per text.
class KeptChars {
  public:
    std::string_view keep(std::string_view chars) {
        char* kept = nullptr;
        if (chars.size() > kBlockSize / 4) {
            kept = blocks_.emplace_back(new char[chars.size()]).get();  // a block of its own
        } else {
            if (chars.size() > left_) {
                next_ = blocks_.emplace_back(new char[kBlockSize]).get();
                left_ = kBlockSize;
            }
            kept = next_;
            next_ += chars.size();
            left_ -= chars.size();
        }
        chars.copy(kept, chars.size());
        return {kept, chars.size()};
    }

  private:
    static constexpr std::size_t kBlockSize = std::size_t{64} << 10;
    std::vector<std::unique_ptr<char[]>> blocks_;
    char* next_ = nullptr;
    std::size_t left_ = 0;
};

// The texts of interned keys, by id - 1. A formatted text is looked up first, so that equal
// texts share an id (a key formatted every time, a pointer or a view, adds none); a key that
// is its own text is kept without a look-up, as its InternedKeys found no equal key.
class KeyTextTable {
  public:
    std::uint32_t intern(std::string_view text) {
        return index_.find_or_add(
            hash_chars(text.data(), text.size()),
            [&](std::uint32_t id) { return texts_[id - 1] == text; },
            [&] { return keep(text).id; });
    }

    KeptKeyText keep(std::string_view text) {
        texts_.push_back(chars_.keep(text));
        return {texts_.back(), static_cast<std::uint32_t>(texts_.size())};
    }

    std::string text(std::uint32_t id) const {
        return id >= 1 && id <= texts_.size() ? std::string{texts_[id - 1]} : std::string{};
    }

  private:
    // A deque, which grows without moving what it holds: a vector's growth freed blocks large
    // enough to move glibc's threshold for mapping blocks (see allocate_key_slots).
    std::deque<std::string_view> texts_;
    IdIndex index_;
    KeptChars chars_;
};

// The key tables, and every key type's InternedKeys, under one lock.
struct KeyTables {
    std::mutex mutex;
    std::vector<KeyType> types{KeyType{}};  // id 0 stays unused
    KeyTextTable texts;
};

KeyTables& key_tables() {
    static KeyTables* tables = new KeyTables;  // never destroyed, like the sites
    return *tables;
}

// Made while the program is loaded, before main, when it has one thread: a fork() can then
// never find another thread initialising this function-local static, whose guard a child
// would wait on forever (README, "When the program forks").
[[maybe_unused]] const bool g_key_tables_made_at_load = (key_tables(), true);

}  // namespace

std::mutex& key_tables_mutex() { return key_tables().mutex; }

namespace {

// Slots from this size on are mapped: glibc's free() of a heap block this large consolidates
// its fast bins (FASTBIN_CONSOLIDATION_THRESHOLD), as chunks found (chunk_transport.cpp).
constexpr std::size_t kMappedSlots = std::size_t{64} << 10;

}  // namespace

void* allocate_key_slots(std::size_t bytes) noexcept {
    if (bytes < kMappedSlots) {
        return ::operator new(bytes, std::nothrow);
    }
    return map_pages(bytes);
}

void free_key_slots(void* slots, std::size_t bytes) noexcept {
    if (bytes < kMappedSlots) {
        ::operator delete(slots);
    } else {
        unmap_pages(slots, bytes);
    }
}

std::uint32_t register_key_type(std::atomic<std::uint32_t>& id, KeyType type) {
    return made_once(id, [type] {
        std::vector<KeyType>& types = key_tables().types;
        types.push_back(type);
        return static_cast<std::uint32_t>(types.size() - 1);  // never 0: id 0 stays unused
    });
}

std::vector<KeyType> registered_key_types() {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    return tables.types;
}

std::uint32_t intern_key_text(std::string_view text) {
    return under_key_tables([text] { return key_tables().texts.intern(text); });
}

std::uint32_t intern_key_text(const KeyTablesLock& /*held*/, std::string_view text) {
    return key_tables().texts.intern(text);
}

KeptKeyText keep_key_text(const KeyTablesLock& /*held*/, std::string_view text) {
    return key_tables().texts.keep(text);
}

namespace {

// The threads' key caches go back to their pools when the thread ends (key_cache.hpp). Kept
// here, in one translation unit, so that the destructor is registered like the recorder's.
struct KeyCacheReleases {
    std::vector<void (*)()> releases;
    ~KeyCacheReleases() {
        t_key_caches_released = true;
        for (void (*release)() : releases) {
            release();
        }
    }
    static inline thread_local constinit bool t_key_caches_released = false;
};
thread_local KeyCacheReleases t_key_cache_releases;

}  // namespace

bool release_at_thread_exit(void (*release)()) {
    if (KeyCacheReleases::t_key_caches_released) {
        return false;
    }
    t_key_cache_releases.releases.push_back(release);
    return true;
}

// The one lock of the key tables is every lock that interning a key takes.
void lock_key_tables_for_fork() { key_tables().mutex.lock(); }

void unlock_key_tables_after_fork() { key_tables().mutex.unlock(); }

std::string interned_key_text(std::uint32_t id) {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    return tables.texts.text(id);
}

}  // namespace qprof::detail
