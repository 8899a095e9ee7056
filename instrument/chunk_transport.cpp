// The transport of chunks between writer threads and the collector: the full queue and the
// free list (chunk_transport.hpp).
#include "chunk_transport.hpp"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <new>
#include <thread>

#include "mapped_pages.hpp"
#include "recording_control.hpp"

namespace qprof::detail {

// A chunk on the heap was a block of 64 KiB, and glibc's free() of a block that size first
// consolidates every small block freed since (its fast bins): at the session's end, when the
// free chunks are deleted, that walk over what the program had freed cost 48 instructions an
// event in benchmarks/shallow_queries.cpp. Mapped pages leave the program's heap alone.
void* Chunk::operator new(std::size_t bytes) {
    void* pages = map_pages(bytes);
    if (pages == nullptr) {
        throw std::bad_alloc();
    }
    return pages;
}

void Chunk::operator delete(void* chunk, std::size_t bytes) noexcept { unmap_pages(chunk, bytes); }

namespace {

// The two lists chunks travel on between writers and the collector, each under a mutex. A
// thread touches them once per full chunk (64 KiB of records), so the lock costs nothing
// measurable. They replaced Boost.Lockfree's queue and stack, whose free list writes the index
// of a node another thread may be reading at that moment (the tagged compare-and-swap then
// discards the value): a data race by the C++ memory model, which ThreadSanitizer reported in
// about one run in 60 of the keyed example. Fixed capacities: no allocation after start-up.
template <std::size_t Capacity>
class ChunkList {
  public:
    // The chunks held with this one, or 0 when the list holds Capacity chunks already.
    std::size_t push(Chunk* chunk) {
        std::lock_guard lock{mutex_};
        if (count_ == Capacity) {
            return 0;
        }
        chunks_[(first_ + count_++) % Capacity] = chunk;
        return count_;
    }
    // The oldest chunk, or nullptr.
    Chunk* pop_oldest() {
        std::lock_guard lock{mutex_};
        if (count_ == 0) {
            return nullptr;
        }
        Chunk* chunk = chunks_[first_];
        first_ = (first_ + 1) % Capacity;
        --count_;
        return chunk;
    }
    // The newest chunk, or nullptr: a free chunk returned last is the likeliest in cache.
    Chunk* pop_newest() {
        std::lock_guard lock{mutex_};
        return count_ == 0 ? nullptr : chunks_[(first_ + --count_) % Capacity];
    }
    std::mutex& mutex() { return mutex_; }

  private:
    std::mutex mutex_;
    std::array<Chunk*, Capacity> chunks_{};
    std::size_t first_ = 0;
    std::size_t count_ = 0;
};

struct Transport {
    // 1 GiB of records waiting for the collector; past that, writers wait (never drop).
    ChunkList<16384> full;
    // Free chunks kept for reuse; past that, returned chunks are deleted.
    ChunkList<1024> free;
};

Transport& transport() {
    static Transport* instance = new Transport;  // lives until the process ends
    return *instance;
}

// Made while the program is loaded, before main, when it has one thread: a fork() can then
// never find another thread initialising this function-local static, whose guard a child
// would wait on forever (README, "When the program forks").
[[maybe_unused]] const bool g_transport_made_at_load = (transport(), true);

}  // namespace

Chunk* take_free_chunk() {
    Chunk* chunk = transport().free.pop_newest();
    return chunk != nullptr ? chunk : new Chunk;
}

void give_back_chunk(Chunk* chunk) {
    if (transport().free.push(chunk) == 0) {
        delete chunk;
    }
}

void send_full_chunk(Chunk* chunk) {
    std::size_t waiting = 0;
    while ((waiting = transport().full.push(chunk)) == 0) {
        std::this_thread::yield();  // the collector is a gigabyte behind: let it catch up
    }
    if (waiting == kWakeChunks) {  // once as the queue grows: a system call per 256 KiB at most
        wake_collector();
    }
}

void prepare_chunk(Chunk* chunk, std::uint32_t generation, std::uint32_t thread) {
    chunk->generation = generation;
    chunk->thread = thread;
    chunk->consumed = 0;
    chunk->published.store(chunk->words, std::memory_order_release);
}

void stock_free_chunks(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        give_back_chunk(new Chunk);
    }
}

void release_free_chunks() {
    while (Chunk* chunk = transport().free.pop_newest()) {
        delete chunk;
    }
}

bool pop_full_chunk(Chunk*& chunk) {
    chunk = transport().full.pop_oldest();
    return chunk != nullptr;
}

void recycle_chunk(Chunk* chunk) { give_back_chunk(chunk); }

namespace {
// A word, not a condition variable and its mutex: a writer wakes the collector holding no lock,
// so that fork() has none more to hold, and a child inherits no waiter's state.
std::atomic<std::uint32_t> g_collector_signal{0};
}  // namespace

std::uint32_t collector_signal() { return g_collector_signal.load(std::memory_order_acquire); }

void wait_for_collector_signal(std::uint32_t seen, std::int64_t timeout_ns) {
#if defined(__linux__)
    const timespec timeout{static_cast<time_t>(timeout_ns / 1'000'000'000),
                           static_cast<long>(timeout_ns % 1'000'000'000)};
    ::syscall(SYS_futex, &g_collector_signal, FUTEX_WAIT_PRIVATE, seen, &timeout, nullptr, 0);
#else
    if (collector_signal() == seen) {
        std::this_thread::sleep_for(std::chrono::nanoseconds{timeout_ns});
    }
#endif
}

void wake_collector() {
    g_collector_signal.fetch_add(1, std::memory_order_release);
#if defined(__linux__)
    ::syscall(SYS_futex, &g_collector_signal, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
#endif
}

void lock_chunk_lists_for_fork() {
    transport().full.mutex().lock();
    transport().free.mutex().lock();
}

void unlock_chunk_lists_after_fork() {
    transport().free.mutex().unlock();
    transport().full.mutex().unlock();
}

}  // namespace qprof::detail
