// Memory for large node arrays, advised for transparent huge pages (see qprof/node_store.hpp).
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <qprof/trace.hpp>

namespace qprof::detail {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t rounded_to_huge_pages(std::size_t bytes) {
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}
}  // namespace

void* allocate_large(std::size_t count, std::size_t size) {
    if (count > static_cast<std::size_t>(PTRDIFF_MAX) / size) {
        throw std::bad_alloc();
    }
    const std::size_t bytes = count * size;
    if (bytes < kHugePage) {
        return ::operator new(bytes);
    }
    void* block = std::aligned_alloc(kHugePage, rounded_to_huge_pages(bytes));
    if (block == nullptr) {
        throw std::bad_alloc();
    }
#ifdef MADV_HUGEPAGE
    ::madvise(block, rounded_to_huge_pages(bytes), MADV_HUGEPAGE);  // a hint: failure is fine
#endif
    return block;
}

void free_large(void* block, std::size_t bytes) {
    if (bytes < kHugePage) {
        ::operator delete(block);
    } else {
        std::free(block);
    }
}

}  // namespace qprof::detail
