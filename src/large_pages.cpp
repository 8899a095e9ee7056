// Memory for large node arrays: mapped here, not taken from malloc (see node_store.hpp).
#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <qprof/node_store.hpp>

namespace qprof::detail {

namespace {
constexpr std::size_t kPage = std::size_t{4} << 10;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
// glibc's malloc maps blocks from 128 KiB on itself, and when such a block is freed it raises
// that bound for the whole process (its "dynamic mmap threshold"). The collector grows its node
// arrays while the program runs, so through malloc it moved the program's own large blocks from
// mmap onto the heap: shallow_queries then paid 3.6 ms at the end of its scan consolidating
// fastbins when its hash tables were freed. Blocks of this size and more are mapped here.
constexpr std::size_t kMapped = std::size_t{128} << 10;

std::size_t rounded_up(std::size_t bytes, std::size_t unit) {
    return (bytes + unit - 1) / unit * unit;
}

// What is mapped for a block of `bytes`: whole huge pages from 2 MiB, whole pages below.
std::size_t mapped_bytes(std::size_t bytes) {
    return rounded_up(bytes, bytes >= kHugePage ? kHugePage : kPage);
}

void* map(std::size_t bytes) {
    void* block =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) {
        throw std::bad_alloc();
    }
    return block;
}

// A block of whole huge pages that starts on a huge page, advised for transparent huge pages:
// a trace of a million nodes would otherwise take thousands of page faults to fill.
void* map_huge(std::size_t bytes) {
    auto* const mapped = static_cast<char*>(map(bytes + kHugePage));
    const std::uintptr_t start = rounded_up(reinterpret_cast<std::uintptr_t>(mapped), kHugePage);
    auto* const block = mapped + (start - reinterpret_cast<std::uintptr_t>(mapped));
    const std::size_t head = static_cast<std::size_t>(block - mapped);
    if (head != 0) {
        ::munmap(mapped, head);
    }
    ::munmap(block + bytes, kHugePage - head);
#ifdef MADV_HUGEPAGE
    ::madvise(block, bytes, MADV_HUGEPAGE);  // a hint: failure is fine
#endif
    return block;
}
}  // namespace

void* allocate_large(std::size_t bytes) {
    if (bytes < kMapped) {
        return ::operator new(bytes);
    }
    const std::size_t mapped = mapped_bytes(bytes);
    return bytes >= kHugePage ? map_huge(mapped) : map(mapped);
}

void free_large(void* block, std::size_t bytes) {
    if (bytes < kMapped) {
        ::operator delete(block);
    } else {
        ::munmap(block, mapped_bytes(bytes));
    }
}

}  // namespace qprof::detail
