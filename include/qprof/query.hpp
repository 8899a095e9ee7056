// A memoized provider that profiles itself: every call is recorded as a hit, a miss (the
// provider ran), a load (a persistent cache answered) or a blocked wait for another thread.
//
//   struct DefId { std::uint32_t krate; std::uint32_t index; };   // no hash or == needed
//
//   qprof::Query<DefId, Ty> type_of{"type_of", [&](const DefId& id) {
//       return lower(generics_of(id));        // queries called here nest under this one
//   }};
//   Ty ty = type_of(DefId{0, 3});             // computed once, then a cached copy
//   qprof::Query<LoopId, Code> compile_loop{"compile_loop", "jit", compile};  // a colour class
//   type_of.invalidate(DefId{0, 3});          // the next call computes it again
//
// Safe to call from many threads: keys live in shards, each with its own mutex, and a
// thread that asks for a key another thread is computing waits for that result. A hit on a
// small, trivially copyable key and value (an id, a DefId -> a Ty handle) takes no lock: the
// shard keeps such values in a table readers probe without it (detail/finished_values.hpp). A query
// that needs its own result while computing it throws qprof::CycleError.
//
// The result is returned by value, so that invalidate() on another thread never leaves a
// caller with a dangling reference. For large values use Query<Key, std::shared_ptr<const T>>.
// Keys are copied into the table, hashed with qprof::KeyHash and compared with qprof::KeyEqual
// (std::hash and == when the key has them, field by field for plain aggregates). A key that is
// not equal to itself (a NaN, or an aggregate holding one) throws std::invalid_argument.
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <qprof/detail/finished_values.hpp>
#include <qprof/detail/guarded_key_text.hpp>
#include <qprof/detail/query_computation.hpp>
#include <qprof/key.hpp>
#include <qprof/qprof.hpp>  // defines QPROF_ENABLED
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>

#if QPROF_ENABLED
#include <qprof/detail/key_record.hpp>
#endif

namespace qprof {

// A query that needs its own result while computing it. what() lists the cycle as a path:
// "cycle detected when computing type_of(DefId{0, 3}) → generics_of(DefId{0, 3}) → ...".
class CycleError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Different names with profiling compiled in and out, so that translation units built both
// ways can use the same Query<Key, Value> without breaking the one-definition rule.
#if QPROF_ENABLED
inline namespace profiled {
#else
inline namespace unprofiled {
#endif

template <typename Key, typename Value>
class Query {
  public:
    using Provider = std::function<Value(const Key&)>;
    // A persistent cache, consulted on a miss before the provider: nullopt if it has no value.
    using Loader = std::function<std::optional<Value>(const Key&)>;

    Query(std::string name, Provider provider, Loader loader = {},
          detail::SourceLocation where = detail::SourceLocation::current())
        : Query(std::move(name), std::string{}, std::move(provider), std::move(loader), where) {}
    // With a colour class, as PROFILE_QUERY_CLASS gives one: the reports colour this
    // provider's runs by it (README, "Colour classes"); "" for none.
    Query(std::string name, std::string colour_class, Provider provider, Loader loader = {},
          detail::SourceLocation where = detail::SourceLocation::current())
        : name_(std::move(name)),
          colour_class_(std::move(colour_class)),
#if QPROF_ENABLED
          site_{name_.c_str(), where.file_name(), static_cast<std::uint32_t>(where.line()),
                detail::SiteKind::query, colour_class_.c_str()},
#endif
          provider_(std::move(provider)),
          loader_(std::move(loader)) {
        (void)where;
    }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    // The cached value (a hit), or the value loaded or computed now (a miss) and cached.
    // Waits if another thread is computing it; throws CycleError if this thread is.
    Value operator()(const Key& key) {
        const std::uint64_t hash = mixed_hash(key);
        Shard& shard = shards_[shard_index(hash)];
        if constexpr (kLockFreeHits) {
            if (std::optional<Value> value = shard.values.find(hash << kShardBits, key)) {
#if QPROF_ENABLED
                detail::record_hit(site_, [&](auto&& use) { use(key); });
#endif
                return *value;
            }
        }
        std::unique_lock lock{shard.mutex};
        const auto slot = shard.slots.find(key);
        if (slot == shard.slots.end()) {
            if (!KeyEqual<Key>{}(key, key)) [[unlikely]] {
                lock.unlock();
                reject_key(key);
            }
            auto pending = std::make_shared<Pending>();
            shard.slots.emplace(key, pending);
            lock.unlock();
            return compute(key, shard, *pending);
        }
        if (const Value* value = std::get_if<Value>(&slot->second)) {
            Value result = *value;
            if constexpr (kLockFreeHits) {
                shard.values.insert(hash << kShardBits, key, result);  // emptied to make room
            }
            lock.unlock();
#if QPROF_ENABLED
            detail::record_hit(site_, [&](auto&& use) { use(key); });
#endif
            return result;
        }
        // Held by value: the slot may be erased while this thread waits.
        const std::shared_ptr<Pending> pending = std::get<std::shared_ptr<Pending>>(slot->second);
        return wait_for(key, lock, *pending);
    }

    // Whether a finished value is cached for this key.
    bool contains(const Key& key) const {
        const Shard& shard = shard_of(key);
        std::lock_guard lock{shard.mutex};
        const auto slot = shard.slots.find(key);
        return slot != shard.slots.end() && std::holds_alternative<Value>(slot->second);
    }

    // Forgets the value of this key. A computation of it in progress still hands its result
    // to the callers already waiting for it, but does not cache it; a later call starts anew.
    void invalidate(const Key& key) {
        Shard& shard = shard_of(key);
        std::lock_guard lock{shard.mutex};
        if (const auto slot = shard.slots.find(key); slot != shard.slots.end()) {
            forget(shard, slot);
        }
    }

    // invalidate() for every key.
    void clear() {
        for (Shard& shard : shards_) {
            std::lock_guard lock{shard.mutex};
            for (auto slot = shard.slots.begin(); slot != shard.slots.end();) {
                slot = forget(shard, slot);
            }
        }
    }

    // The number of finished values cached.
    std::size_t size() const {
        std::size_t finished = 0;
        for (const Shard& shard : shards_) {
            std::lock_guard lock{shard.mutex};
            finished += shard.finished;
        }
        return finished;
    }

    const std::string& name() const { return name_; }

  private:
    // A result being computed; the callers waiting for it copy their value from here.
    struct Pending : detail::PendingResult {
        std::optional<Value> value;
    };
    using Slot = std::variant<Value, std::shared_ptr<Pending>>;
    using Slots = std::unordered_map<Key, Slot, KeyHash<Key>, KeyEqual<Key>>;
    // Hits of small, trivially copyable keys and values are answered without the mutex.
    static constexpr bool kLockFreeHits = detail::kLockFreeHits<Key, Value>;
    struct NoFinishedValues {};
    using FinishedValues =
        std::conditional_t<kLockFreeHits, detail::FinishedValues<Key, Value, KeyEqual<Key>>,
                           NoFinishedValues>;

    // A thread holds one shard mutex at most, and takes the waits-for graph's mutex only
    // under it, so that the locks cannot deadlock.
    struct alignas(64) Shard {  // on cache lines of its own
        mutable std::mutex mutex;
        Slots slots;
        std::size_t finished = 0;  // slots holding a value
        // The same finished values, for readers without the mutex; written under it.
        [[no_unique_address]] FinishedValues values;
    };
    static constexpr std::size_t kShardBits = 4;

    // Fibonacci hashing: the top bits choose the shard, the next ones a slot of its
    // FinishedValues; the map's buckets in a shard use KeyHash's low bits.
    static std::uint64_t mixed_hash(const Key& key) {
        return static_cast<std::uint64_t>(KeyHash<Key>{}(key)) * 0x9E3779B97F4A7C15ull;
    }
    static std::size_t shard_index(std::uint64_t hash) {
        return static_cast<std::size_t>(hash >> (64 - kShardBits));
    }
    Shard& shard_of(const Key& key) { return shards_[shard_index(mixed_hash(key))]; }
    const Shard& shard_of(const Key& key) const { return shards_[shard_index(mixed_hash(key))]; }

    typename Slots::iterator forget(Shard& shard, typename Slots::iterator slot) {
        if (std::holds_alternative<Value>(slot->second)) {
            --shard.finished;
            if constexpr (kLockFreeHits) {
                shard.values.erase(mixed_hash(slot->first) << kShardBits, slot->first);
            }
        }
        return shard.slots.erase(slot);  // a computation in progress keeps its Pending alive
    }

    // The slot of `key` if it is still the one `pending` was made for: invalidate() may have
    // removed it, and a later call put a computation of its own there.
    static typename Slots::iterator own_slot(Shard& shard, const Key& key, const Pending& pending) {
        const auto slot = shard.slots.find(key);
        if (slot != shard.slots.end()) {
            const auto* owner = std::get_if<std::shared_ptr<Pending>>(&slot->second);
            if (owner != nullptr && owner->get() == &pending) {
                return slot;
            }
        }
        return shard.slots.end();
    }

    [[noreturn]] void reject_key(const Key& key) const;
    Value compute(const Key& key, Shard& shard, Pending& pending);
    Value load_or_run(const Key& key);
    void publish(const Key& key, Shard& shard, Pending& pending, const Value& value);
    Value wait_for(const Key& key, std::unique_lock<std::mutex>& lock, Pending& pending);
    [[noreturn]] void throw_cycle(const Key& key, const detail::PendingResult& closing,
                                  bool through_other_thread) const;
    static void describe(std::string& out, const void* query, const void* key);

    std::string name_;          // before site_, which points into it
    std::string colour_class_;  // the same
#if QPROF_ENABLED
    detail::Site site_;
#endif
    Provider provider_;
    Loader loader_;
    std::array<Shard, std::size_t{1} << kShardBits> shards_;
};

// A miss: this thread owns `pending` until the value is cached or the provider has thrown.
template <typename Key, typename Value>
Value Query<Key, Value>::compute(const Key& key, Shard& shard, Pending& pending) {
    const detail::QueryFrame frame{this, &key, &Query::describe};
    pending.frame = &frame;
    try {
        Value value = load_or_run(key);
        publish(key, shard, pending, value);
        return value;
    } catch (...) {
        // No half-made entry: the slot goes, the waiters rethrow, a later call tries again.
        std::unique_lock lock{shard.mutex};
        if (const auto slot = own_slot(shard, key, pending); slot != shard.slots.end()) {
            shard.slots.erase(slot);
        }
        pending.error = std::current_exception();
        pending.done.store(true, std::memory_order_release);
        lock.unlock();
        pending.ready.notify_all();
        throw;
    }
}

// Caches the value and wakes the waiters; throws only while copying, before anything changed.
template <typename Key, typename Value>
void Query<Key, Value>::publish(const Key& key, Shard& shard, Pending& pending,
                                const Value& value) {
    Value cached = value;  // copied before the lock is taken
    std::unique_lock lock{shard.mutex};
    if (pending.waiters > 0) {
        pending.value.emplace(value);
    }
    pending.done.store(true, std::memory_order_release);
    if (const auto slot = own_slot(shard, key, pending); slot != shard.slots.end()) {
        slot->second.template emplace<Value>(std::move(cached));
        ++shard.finished;
        if constexpr (kLockFreeHits) {
            shard.values.insert(mixed_hash(key) << kShardBits, key, value);
        }
    }
    lock.unlock();
    pending.ready.notify_all();
}

// The loader, then the provider if the loader has no value, in one scope: a load or a miss.
template <typename Key, typename Value>
Value Query<Key, Value>::load_or_run(const Key& key) {
#if QPROF_ENABLED
    if (loader_ && !detail::records(site_, detail::RecordKind::load)) {
        // Loads left out (-Z profile-queries-events=-loads): the provider's run is still one.
        if (std::optional<Value> loaded = loader_(key)) {
            return std::move(*loaded);
        }
        const detail::ScopeGuard scope{site_, detail::RecordKind::miss,
                                       [&](auto&& use) { use(key); }};
        return provider_(key);
    }
    detail::ScopeGuard scope{site_, loader_ ? detail::RecordKind::load : detail::RecordKind::miss,
                             [&](auto&& use) { use(key); }};
#endif
    if (loader_) {
        if (std::optional<Value> loaded = loader_(key)) {
            return std::move(*loaded);
        }
#if QPROF_ENABLED
        scope.set_kind(detail::RecordKind::miss);
#endif
    }
    return provider_(key);
}

// Another thread, or this one, is computing the key: wait for its result, or throw if
// waiting would never end.
template <typename Key, typename Value>
Value Query<Key, Value>::wait_for(const Key& key, std::unique_lock<std::mutex>& lock,
                                  Pending& pending) {
    if (pending.owner == std::this_thread::get_id()) {
        lock.unlock();
        throw_cycle(key, pending, false);
    }
    const detail::WaitRegistration registration{pending};
    if (const detail::PendingResult* closing = registration.closing_entry()) {
        lock.unlock();
        throw_cycle(key, *closing, true);
    }
    ++pending.waiters;
    {
#if QPROF_ENABLED
        const detail::ScopeGuard blocked{site_, detail::RecordKind::blocked,
                                         [&](auto&& use) { use(key); }};
#endif
        pending.ready.wait(lock, [&] { return pending.done.load(std::memory_order_relaxed); });
    }
    lock.unlock();  // done: nothing in `pending` changes any more
    if (pending.error) {
        std::rethrow_exception(pending.error);
    }
    return *pending.value;
}

// A key not equal to itself (a NaN, or an aggregate holding one) could never be found again:
// it would be computed on every call and fill the table with entries no call can reach.
template <typename Key, typename Value>
void Query<Key, Value>::reject_key(const Key& key) const {
    std::string message = "qprof: query '" + name_ +
                          "' was asked for a key that is not equal to "
                          "itself: ";
    describe(message, this, &key);
    message +=
        ". A NaN in a floating-point key cannot be cached; map NaN to one chosen value "
        "before asking, or use a key type without NaN (e.g. the value's bits).";
    throw std::invalid_argument(message);
}

// `closing` is an entry this thread computes, so its frame is on this thread's stack.
template <typename Key, typename Value>
void Query<Key, Value>::throw_cycle(const Key& key, const detail::PendingResult& closing,
                                    bool through_other_thread) const {
    std::string message = "cycle detected when computing " + detail::cycle_path(*closing.frame);
    describe(message, this, &key);
    if (through_other_thread) {
        message += "; the cycle goes through another thread, which is computing ";
        describe(message, this, &key);
        message += " and waits for ";
        closing.frame->describe(message);
    }
    throw CycleError(message);
}

template <typename Key, typename Value>
void Query<Key, Value>::describe(std::string& out, const void* query, const void* key) {
    out += static_cast<const Query*>(query)->name_;
    out += '(';
    out += detail::guarded_key_text(*static_cast<const Key*>(key)).text;
    out += ')';
}

}  // namespace profiled / unprofiled
}  // namespace qprof

#endif  // QPROF_DETAIL_CXX20
