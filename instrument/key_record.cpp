// The tables behind key records: key types, and the interned texts of keys formatted at once.
#include <mutex>
#include <qprof/detail/key_record.hpp>
#include <string>
#include <utility>
#include <vector>

#include "fork_safety.hpp"
#include "text_ids.hpp"

namespace qprof::detail {

bool g_record_keys = false;

namespace {

// The key tables, and every key type's InternedKeys, under one lock.
struct KeyTables {
    std::mutex mutex;
    std::vector<KeyType> types{KeyType{}};  // id 0 stays unused
    TextIds texts;
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

std::uint32_t register_key_type(KeyType type) {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    tables.types.push_back(type);
    return static_cast<std::uint32_t>(tables.types.size() - 1);
}

std::vector<KeyType> registered_key_types() {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    return tables.types;
}

std::uint32_t intern_key_text(std::string text) {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    return tables.texts.id_of(std::move(text));
}

std::uint32_t intern_key_text(const KeyTablesLock& /*held*/, std::string text) {
    return key_tables().texts.id_of(std::move(text));
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
    const std::vector<std::string>& texts = tables.texts.texts();
    return id >= 1 && id <= texts.size() ? texts[id - 1] : std::string{};
}

}  // namespace qprof::detail
