// The malloc variant of the allocation hook (qprof/alloc_hook_malloc.hpp, which this executable
// includes): blocks from malloc, calloc, realloc, the aligned forms and operator new (which takes
// its blocks from malloc) are each counted once, on the scope that was open, exactly.
#include <malloc.h>

#include <array>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <qprof/alloc_hook_malloc.hpp>
#include <qprof/qprof.hpp>

#include "test_support.hpp"

using qprof::MemoryUse;
using qprof::test::totals_of;

namespace {

std::uint64_t usable(std::size_t size) {
    void* block = std::malloc(size);
    const std::uint64_t bytes = malloc_usable_size(block);
    std::free(block);
    return bytes;
}

// What the providers keep: b (calloc), c (grown by realloc), d (posix_memalign), e (new[]).
std::array<void*, 3> g_kept{};
std::unique_ptr<char[]> g_kept_new;
int g_memalign_status = -1;  // checked outside the scope: a failed check allocates

void from_c() {
    PROFILE_QUERY(from_c);
    void* temporary = std::malloc(1000);
    g_kept[0] = std::calloc(10, 100);
    void* grown = std::realloc(nullptr, 300);  // a malloc
    g_kept[1] = std::realloc(grown, 5000);     // frees the 300-byte block, allocates anew
    void* aligned = nullptr;
    g_memalign_status = posix_memalign(&aligned, 64, 256);
    g_kept[2] = aligned;
    std::free(temporary);
}

void from_new() {
    PROFILE_QUERY(from_new);
    g_kept_new = std::make_unique<char[]>(700);
}

void outer() {
    PROFILE_QUERY(outer);
    from_c();
    from_new();
}

void release() {
    for (void*& block : g_kept) {
        std::free(block);
        block = nullptr;
    }
    g_kept_new.reset();
}

// The workload once in a session recording memory, after a run that registers every site.
qprof::Trace run_workload() {
    {
        qprof::Session warm_up{qprof::test::recording_options()};
        outer();
    }
    release();
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_memory = true;
    qprof::Session session{std::move(options)};
    outer();
    session.finish();
    return session.trace();
}

std::string text(const MemoryUse& use) {
    return std::to_string(use.allocated_bytes) + " bytes in " + std::to_string(use.allocations) +
           ", " + std::to_string(use.retained_bytes) + " retained";
}

}  // namespace

TEST_CASE("malloc hook: malloc, calloc, realloc, posix_memalign and new, each counted once") {
    const qprof::Trace trace = run_workload();
    REQUIRE(g_memalign_status == 0);
    std::uint64_t kept = 0;
    for (void* block : g_kept) {
        kept += malloc_usable_size(block);
    }
    const std::uint64_t freed = usable(1000) + usable(300);
    const MemoryUse c{kept + freed, 5, static_cast<std::int64_t>(kept)};
    const std::uint64_t new_bytes = malloc_usable_size(g_kept_new.get());
    const MemoryUse cpp{new_bytes, 1, static_cast<std::int64_t>(new_bytes)};
    release();
    REQUIRE(trace.memory_recorded);
    CHECK(text(totals_of(trace, "from_c").memory_total) == text(c));
    CHECK(text(totals_of(trace, "from_new").memory_total) == text(cpp));
    CHECK(text(totals_of(trace, "outer").memory_self) == text({}));
    CHECK(
        text(totals_of(trace, "outer").memory_total) ==
        text({c.allocated_bytes + cpp.allocated_bytes, 6, c.retained_bytes + cpp.retained_bytes}));
}

TEST_CASE("malloc hook: the aligned forms and reallocarray keep their contracts") {
    void* block = aligned_alloc(256, 512);
    REQUIRE(block != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(block) % 256 == 0);
    std::free(block);
    CHECK(aligned_alloc(3, 64) == nullptr);
    void* out = nullptr;
    CHECK(posix_memalign(&out, 24, 64) == EINVAL);
    volatile std::size_t huge = SIZE_MAX / 2;  // not a constant: no compile-time warning
    CHECK(reallocarray(nullptr, huge, 4) == nullptr);
    CHECK(errno == ENOMEM);
    void* grown = reallocarray(nullptr, 10, 8);
    REQUIRE(grown != nullptr);
    CHECK(malloc_usable_size(grown) >= 80);
    std::free(grown);
}
