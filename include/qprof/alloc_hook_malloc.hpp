// The allocation hook, malloc variant (glibc): what -Z profile-queries-memory counts when the
// program's memory comes from malloc, or from both malloc and operator new. Include it in
// exactly one .cpp file of the program, instead of qprof/alloc_hook.hpp; it replaces malloc,
// free, calloc, realloc, reallocarray and the aligned forms (memalign, posix_memalign,
// aligned_alloc, valloc, pvalloc) with versions that call glibc's own allocator and count each
// block on its own thread while a session records memory. operator new takes its blocks from
// malloc, so they count too.
//
//   // main.cpp
//   #include <qprof/alloc_hook_malloc.hpp>   // once in the program, never with alloc_hook.hpp
//   #include <qprof/qprof.hpp>
//
// Why it is safe on glibc: glibc supports replacing its malloc (the glibc manual, "Replacing
// malloc"; its own internal allocations then come here too), and exports its allocator under
// the names __libc_malloc, __libc_free ... which these call, so no block ever passes between
// two allocators: every function of the family is replaced, and free, malloc_usable_size and
// realloc see only glibc's blocks. The counting reads an atomic flag and, while recording,
// thread-local counters in the initial-exec model: no lock, no allocation, no recursion.
//
// Limits: glibc and a dynamically linked program (with a static libc the replacement and glibc's
// malloc would be defined twice). A realloc counts as freeing the old block and allocating the
// new one. Under AddressSanitizer or ThreadSanitizer, which replace malloc themselves, the header
// defines nothing and counts nothing. Built with -Dprofiling=disabled (or QPROF_ENABLED 0) it
// defines nothing either. Including both hooks in one program fails to link (the symbol
// qprof_detail_allocation_hook is defined twice): each block would be counted twice.
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <cstdlib>  // defines __GLIBC__ on glibc
#include <qprof/config.hpp>

#ifndef QPROF_ENABLED
#define QPROF_ENABLED QPROF_CONFIG_PROFILING
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define QPROF_DETAIL_MALLOC_REPLACED_BY_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define QPROF_DETAIL_MALLOC_REPLACED_BY_SANITIZER 1
#endif
#endif

#if QPROF_ENABLED && defined(__GLIBC__) && !defined(QPROF_DETAIL_MALLOC_REPLACED_BY_SANITIZER)

#include <malloc.h>

#include <cerrno>
#include <cstddef>
#include <qprof/detail/alloc_counter.hpp>
#if __has_include(<mm_malloc.h>)
// Clang's copy declares posix_memalign without noexcept: it must come before the definition.
#include <mm_malloc.h>
#endif

// Parameters are named as glibc's headers name them, and its allocator's entry points are
// reserved names: both as they must be.
// NOLINTBEGIN(misc-definitions-in-headers,clang-diagnostic-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)

// glibc's allocator under its exported names (GLIBC_2.0), declared by no header.
extern "C" {
void* __libc_malloc(std::size_t size) noexcept;
void __libc_free(void* block) noexcept;
void* __libc_calloc(std::size_t count, std::size_t size) noexcept;
void* __libc_realloc(void* block, std::size_t size) noexcept;
void* __libc_memalign(std::size_t alignment, std::size_t size) noexcept;
void* __libc_valloc(std::size_t size) noexcept;
void* __libc_pvalloc(std::size_t size) noexcept;
}

namespace qprof::detail::alloc_hook_malloc {

inline void* counted(void* block) noexcept {
    count_allocation(block);
    return block;
}

// The old block's bytes go when the new one comes; a failed realloc leaves the old block.
inline void* reallocate(void* block, std::size_t size) noexcept {
    const std::size_t before = block != nullptr ? malloc_usable_size(block) : 0;
    void* moved = __libc_realloc(block, size);
    if (moved != nullptr || size == 0) {
        count_freed_bytes(before);
        count_allocation(moved);
    }
    return moved;
}

inline bool power_of_two(std::size_t value) { return value != 0 && (value & (value - 1)) == 0; }

}  // namespace qprof::detail::alloc_hook_malloc

// One hook per program: alloc_hook.hpp defines the same symbol.
extern "C" const int qprof_detail_allocation_hook = 2;

extern "C" {

void* malloc(std::size_t __size) noexcept {
    return qprof::detail::alloc_hook_malloc::counted(__libc_malloc(__size));
}

void free(void* __ptr) noexcept {
    qprof::detail::count_free(__ptr);
    __libc_free(__ptr);
}

void* calloc(std::size_t __nmemb, std::size_t __size) noexcept {
    return qprof::detail::alloc_hook_malloc::counted(__libc_calloc(__nmemb, __size));
}

void* realloc(void* __ptr, std::size_t __size) noexcept {
    return qprof::detail::alloc_hook_malloc::reallocate(__ptr, __size);
}

void* reallocarray(void* __ptr, std::size_t __nmemb, std::size_t __size) noexcept {
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(__nmemb, __size, &bytes)) {
        errno = ENOMEM;
        return nullptr;
    }
    return qprof::detail::alloc_hook_malloc::reallocate(__ptr, bytes);
}

void* memalign(std::size_t __alignment, std::size_t __size) noexcept {
    return qprof::detail::alloc_hook_malloc::counted(__libc_memalign(__alignment, __size));
}

void* aligned_alloc(std::size_t __alignment, std::size_t __size) noexcept {
    if (!qprof::detail::alloc_hook_malloc::power_of_two(__alignment)) {
        errno = EINVAL;
        return nullptr;
    }
    return qprof::detail::alloc_hook_malloc::counted(__libc_memalign(__alignment, __size));
}

int posix_memalign(void** __memptr, std::size_t __alignment, std::size_t __size) noexcept {
    if (!qprof::detail::alloc_hook_malloc::power_of_two(__alignment) ||
        __alignment % sizeof(void*) != 0) {
        return EINVAL;
    }
    void* block = __libc_memalign(__alignment, __size);
    if (block == nullptr) {
        return ENOMEM;
    }
    *__memptr = qprof::detail::alloc_hook_malloc::counted(block);
    return 0;
}

void* valloc(std::size_t __size) noexcept {
    return qprof::detail::alloc_hook_malloc::counted(__libc_valloc(__size));
}

void* pvalloc(std::size_t __size) noexcept {
    return qprof::detail::alloc_hook_malloc::counted(__libc_pvalloc(__size));
}

}  // extern "C"
// NOLINTEND(misc-definitions-in-headers,clang-diagnostic-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)

#endif  // QPROF_ENABLED && __GLIBC__ && not sanitized
#endif  // QPROF_DETAIL_CXX20
