// Anonymous pages of their own for the runtime's large blocks (chunks, key index slots): never
// the program's heap, whose free() of a large block consolidates every small block the program
// freed since, and may raise glibc's threshold for mapping blocks (chunk_transport.cpp,
// key_record.cpp say what each cost).
#pragma once

#include <sys/mman.h>

#include <cstddef>

namespace qprof::detail {

// `bytes` of zeroed pages, or null when there is no memory for them.
inline void* map_pages(std::size_t bytes) noexcept {
    void* pages =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return pages != MAP_FAILED ? pages : nullptr;
}

inline void unmap_pages(void* pages, std::size_t bytes) noexcept { ::munmap(pages, bytes); }

}  // namespace qprof::detail
