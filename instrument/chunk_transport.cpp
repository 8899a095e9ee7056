// The transport of chunks between writer threads and the collector: the full queue and the
// free list (chunk_transport.hpp).
#include "chunk_transport.hpp"

#include <sys/mman.h>

#include <array>
#include <mutex>
#include <new>
#include <thread>

#include "recording_control.hpp"

namespace qprof::detail {

// A chunk on the heap was a block of 64 KiB, and glibc's free() of a block that size first
// consolidates every small block freed since (its fast bins): at the session's end, when the
// free chunks are deleted, that walk over what the program had freed cost 48 instructions an
// event in benchmarks/shallow_queries.cpp. Mapped pages leave the program's heap alone.
void* Chunk::operator new(std::size_t bytes) {
    void* pages =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) {
        throw std::bad_alloc();
    }
    return pages;
}

void Chunk::operator delete(void* chunk, std::size_t bytes) noexcept { ::munmap(chunk, bytes); }

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
    // False when the list holds Capacity chunks already.
    bool push(Chunk* chunk) {
        std::lock_guard lock{mutex_};
        if (count_ == Capacity) {
            return false;
        }
        chunks_[(first_ + count_++) % Capacity] = chunk;
        return true;
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
    if (!transport().free.push(chunk)) {
        delete chunk;
    }
}

void send_full_chunk(Chunk* chunk) {
    while (!transport().full.push(chunk)) {
        std::this_thread::yield();  // the collector is a gigabyte behind: let it catch up
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

void lock_chunk_lists_for_fork() {
    transport().full.mutex().lock();
    transport().free.mutex().lock();
}

void unlock_chunk_lists_after_fork() {
    transport().free.mutex().unlock();
    transport().full.mutex().unlock();
}

}  // namespace qprof::detail
