// The allocation hook: what -Z profile-queries-memory counts. Include it in exactly one .cpp
// file of the program (the one with main, say); it replaces the global operator new and
// delete, every form (sized, aligned, nothrow, arrays), with versions that call malloc and
// free and count each block on its own thread while a session records memory.
//
//   // main.cpp
//   #include <qprof/alloc_hook.hpp>   // once in the program: a second copy does not link
//   #include <qprof/qprof.hpp>
//
// What it counts: blocks from operator new, in the allocator's usable bytes
// (malloc_usable_size). Blocks the program takes from malloc itself are not counted. Without
// -Z profile-queries-memory each call costs one predictable branch over malloc and free.
//
// Under AddressSanitizer these definitions replace ASan's operator new; ASan still checks every
// block through its malloc and free, but no longer tells `delete` from `free` (a mismatched
// pair goes unreported). Built with -Dprofiling=disabled (or QPROF_ENABLED 0) the header
// defines nothing and the standard operators stay.
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <qprof/config.hpp>

#ifndef QPROF_ENABLED
#define QPROF_ENABLED QPROF_CONFIG_PROFILING
#endif

#if QPROF_ENABLED

#include <cstdlib>
#include <new>
#include <qprof/detail/alloc_counter.hpp>

namespace qprof::detail::alloc_hook {

[[noreturn]] inline void out_of_memory() {
#if defined(__cpp_exceptions)
    throw std::bad_alloc();
#else
    std::abort();
#endif
}

// malloc, or posix_memalign for an alignment above malloc's; null when out of memory.
inline void* try_allocate(std::size_t size, std::size_t alignment) {
    void* block = nullptr;
    if (alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
        block = std::malloc(size == 0 ? 1 : size);
    } else if (::posix_memalign(&block, alignment, size == 0 ? 1 : size) != 0) {
        block = nullptr;
    }
    count_allocation(block);
    return block;
}

// What the throwing operator new does: the new-handler until it gives up, then bad_alloc.
inline void* allocate(std::size_t size, std::size_t alignment) {
    for (;;) {
        if (void* block = try_allocate(size, alignment)) {
            return block;
        }
        std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) {
            out_of_memory();
        }
        handler();
    }
}

inline void* allocate_nothrow(std::size_t size, std::size_t alignment) noexcept {
#if defined(__cpp_exceptions)
    try {
        return allocate(size, alignment);
    } catch (...) {
        return nullptr;
    }
#else
    return try_allocate(size, alignment);
#endif
}

inline void release(void* block) noexcept {
    count_free(block);
    std::free(block);
}

inline constexpr std::size_t kDefault = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

}  // namespace qprof::detail::alloc_hook

// Replacement functions may not be inline ([replacement.functions]): hence "one .cpp file".
// NOLINTBEGIN(misc-definitions-in-headers,misc-new-delete-overloads)
// One hook per program: qprof/alloc_hook_malloc.hpp defines the same symbol, so a program that
// included both, and would count each block twice, does not link.
extern "C" const int qprof_detail_allocation_hook = 1;

void* operator new(std::size_t size) {
    return qprof::detail::alloc_hook::allocate(size, qprof::detail::alloc_hook::kDefault);
}
void* operator new[](std::size_t size) {
    return qprof::detail::alloc_hook::allocate(size, qprof::detail::alloc_hook::kDefault);
}
void* operator new(std::size_t size, std::align_val_t alignment) {
    return qprof::detail::alloc_hook::allocate(size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
    return qprof::detail::alloc_hook::allocate(size, static_cast<std::size_t>(alignment));
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    return qprof::detail::alloc_hook::allocate_nothrow(size, qprof::detail::alloc_hook::kDefault);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    return qprof::detail::alloc_hook::allocate_nothrow(size, qprof::detail::alloc_hook::kDefault);
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
    return qprof::detail::alloc_hook::allocate_nothrow(size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
    return qprof::detail::alloc_hook::allocate_nothrow(size, static_cast<std::size_t>(alignment));
}

void operator delete(void* block) noexcept { qprof::detail::alloc_hook::release(block); }
void operator delete[](void* block) noexcept { qprof::detail::alloc_hook::release(block); }
void operator delete(void* block, std::size_t) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete[](void* block, std::size_t) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete(void* block, std::align_val_t) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete[](void* block, std::align_val_t) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete(void* block, std::size_t, std::align_val_t) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete[](void* block, std::size_t, std::align_val_t) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete(void* block, const std::nothrow_t&) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete[](void* block, const std::nothrow_t&) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete(void* block, std::align_val_t, const std::nothrow_t&) noexcept {
    qprof::detail::alloc_hook::release(block);
}
void operator delete[](void* block, std::align_val_t, const std::nothrow_t&) noexcept {
    qprof::detail::alloc_hook::release(block);
}
// NOLINTEND(misc-definitions-in-headers,misc-new-delete-overloads)

#endif  // QPROF_ENABLED
#endif  // QPROF_DETAIL_CXX20
