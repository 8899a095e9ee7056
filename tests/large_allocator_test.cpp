// The node arrays' allocator (src/large_pages.cpp): large blocks are mapped by qprof itself, so
// that the collector growing them while the program runs leaves glibc's malloc as it was.
#include <malloc.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <qprof/node_store.hpp>

#include "sanitizers.hpp"

namespace {

using qprof::detail::LargeVector;

constexpr std::size_t kKiB = 1024;
constexpr std::size_t kMiB = 1024 * kKiB;

// A block from malloc, held until the end of the test: freeing a block glibc mapped would raise
// its bound (see below), which is what the test looks for.
struct Held {
    explicit Held(std::size_t bytes) : block(std::malloc(bytes)) { REQUIRE(block != nullptr); }
    ~Held() { std::free(block); }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    void* block;
};

// Whether glibc's malloc mapped a block of `bytes` of its own (rather than cutting it from its
// heap): the count of its mapped blocks grew when it was taken.
bool malloc_maps(std::size_t bytes, std::unique_ptr<Held>& held) {
    const auto before = mallinfo2().hblks;
    held = std::make_unique<Held>(bytes);
    return mallinfo2().hblks > before;
}

}  // namespace

TEST_CASE("large allocator: growing and freeing large arrays leaves malloc's mapping bound") {
    if (qprof::test::kSanitized) {
        return;  // the sanitizers' malloc is their own: glibc's counts say nothing there
    }
    // glibc maps blocks of 128 KiB and more, and raises that bound to the size of a mapped
    // block when it is freed: a program's 512 KiB table would then come from the heap.
    std::unique_ptr<Held> first;
    std::unique_ptr<Held> second;
    REQUIRE(malloc_maps(512 * kKiB, first));
    const auto mapped_by_malloc = mallinfo2().hblks;
    {
        LargeVector<std::uint64_t> grown;
        for (std::uint64_t i = 0; i < 4 * kMiB / sizeof(std::uint64_t); ++i) {
            grown.push_back(i);  // 8 KiB ... 4 MiB, each step freeing the block before
        }
        CHECK(grown[12345] == 12345);
        CHECK(mallinfo2().hblks == mapped_by_malloc);  // none of its blocks is malloc's
    }
    CHECK(malloc_maps(512 * kKiB, second));
}

TEST_CASE("large allocator: a block of 2 MiB or more starts on a huge page") {
    for (const std::size_t bytes : {2 * kMiB, 2 * kMiB + 8, 5 * kMiB + 4096, 16 * kMiB}) {
        LargeVector<char> block(bytes, 'q');
        CHECK(reinterpret_cast<std::uintptr_t>(block.data()) % (2 * kMiB) == 0);
        CHECK(block.front() == 'q');
        CHECK(block.back() == 'q');  // its last byte is mapped and written
    }
}

TEST_CASE("large allocator: blocks below 2 MiB hold what is written to their last byte") {
    for (const std::size_t bytes :
         {std::size_t{1}, 127 * kKiB, 128 * kKiB, 128 * kKiB + 1, 2 * kMiB - 1}) {
        LargeVector<char> block(bytes, 'z');
        block.back() = 'e';
        CHECK(block.front() == (bytes == 1 ? 'e' : 'z'));
        CHECK(block.back() == 'e');
    }
}
