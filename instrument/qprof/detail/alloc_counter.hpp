// Counts the calling thread's allocations while a session records memory
// (-Z profile-queries-memory). The allocation hook (qprof/alloc_hook.hpp) calls these from the
// program's operator new and delete; a scope reads the counters when it opens and closes
// (recorder.hpp), so that what it allocated is the difference.
//
//   void* block = std::malloc(size);
//   count_allocation(block);          // one predictable branch while memory is not recorded
//   ...
//   count_free(block);
//   std::free(block);
//
// Sizes are the allocator's usable sizes (malloc_usable_size): what a block really takes, and
// the only size a plain `delete p` can know of without a header in front of every block.
//
// qprof's own allocations on the program's threads (a new chunk, a site's registration, a
// key's text) are not the program's: qprof makes them under an OwnAllocations guard, which the
// counters honour, so that a scope whose body allocates nothing shows 0 bytes.
#pragma once

#include <malloc.h>

#include <atomic>
#include <cstdint>

namespace qprof::detail {

// One thread's allocations since it started, while memory was recorded.
struct AllocationCounters {
    std::uint64_t allocated_bytes;
    std::uint64_t allocations;
    std::uint64_t freed_bytes;
};

// Whether the recording session counts allocations; relaxed, read on every allocation.
extern std::atomic<bool> g_record_memory;
extern thread_local constinit AllocationCounters t_allocations
    __attribute__((tls_model("initial-exec")));
// Above 0 while qprof allocates for itself on this thread: its blocks are not counted.
extern thread_local constinit std::uint32_t t_own_allocations
    __attribute__((tls_model("initial-exec")));

// While one lives, what the thread allocates and frees is qprof's own. Taken on qprof's slow
// paths and around key recording only; without -Z profile-queries-memory nothing reads it.
class OwnAllocations {
  public:
    OwnAllocations() { ++t_own_allocations; }
    ~OwnAllocations() { --t_own_allocations; }
    OwnAllocations(const OwnAllocations&) = delete;
    OwnAllocations& operator=(const OwnAllocations&) = delete;
};

inline void count_allocation(void* block) {
    if (g_record_memory.load(std::memory_order_relaxed) && block != nullptr) [[unlikely]] {
        if (t_own_allocations == 0) {
            AllocationCounters& counters = t_allocations;
            counters.allocated_bytes += malloc_usable_size(block);
            ++counters.allocations;
        }
    }
}

inline void count_free(void* block) {
    if (g_record_memory.load(std::memory_order_relaxed) && block != nullptr) [[unlikely]] {
        if (t_own_allocations == 0) {
            t_allocations.freed_bytes += malloc_usable_size(block);
        }
    }
}

// A block's bytes freed after it is gone (a realloc that moved it), measured before.
inline void count_freed_bytes(std::size_t bytes) {
    if (g_record_memory.load(std::memory_order_relaxed)) [[unlikely]] {
        if (t_own_allocations == 0) {
            t_allocations.freed_bytes += bytes;
        }
    }
}

}  // namespace qprof::detail
