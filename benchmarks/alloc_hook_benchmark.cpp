// The allocation hook's cost per allocation (qprof/alloc_hook.hpp, which this program includes:
// its operator new and delete are the hook's): a new/delete pair of 64 bytes
//
//   malloc/free                 std::malloc and std::free: what the hook calls underneath
//   hook/off                    new and delete with no session counting memory: one branch each
//   hook/on                     the same while a session records memory (-Z
//   profile-queries-memory):
//                               each also reads the usable size and adds it to the thread's
//                               counters
//   hook/on_in_scope            the pair inside a provider scope, which writes its memory record:
//                               against enabled/query_scope of hot_path_benchmark
//
//   $ ./alloc_hook_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The sessions record into a collector that recycles chunks unread (session_without_trace), so
// memory stays flat however long they run.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <qprof/alloc_hook.hpp>
#include <qprof/qprof.hpp>

#include "testing.hpp"

namespace {

constexpr std::size_t kBytes = 64;

std::unique_ptr<qprof::Session> memory_session() {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.record_memory = true;
    options.reporters = {};
    return qprof::testing::session_without_trace(options);
}

void malloc_free(benchmark::State& state) {
    for (auto _ : state) {
        void* block = std::malloc(kBytes);
        benchmark::DoNotOptimize(block);
        std::free(block);
    }
}
BENCHMARK(malloc_free)->Name("malloc/free");

// Through the replaceable operators, so that the compiler cannot pair and drop them.
void new_delete(benchmark::State& state) {
    for (auto _ : state) {
        void* block = ::operator new(kBytes);
        benchmark::DoNotOptimize(block);
        ::operator delete(block);
    }
}

void hook_off(benchmark::State& state) { new_delete(state); }
BENCHMARK(hook_off)->Name("hook/off");

void hook_on(benchmark::State& state) {
    const auto session = memory_session();
    if (!session->recording()) {
        state.SkipWithError("the session is not recording");
    }
    new_delete(state);
}
BENCHMARK(hook_on)->Name("hook/on");

void hook_on_in_scope(benchmark::State& state) {
    const auto session = memory_session();
    for (auto _ : state) {
        PROFILE_QUERY(allocating_query);
        void* block = ::operator new(kBytes);
        benchmark::DoNotOptimize(block);
        ::operator delete(block);
    }
}
BENCHMARK(hook_on_in_scope)->Name("hook/on_in_scope");

}  // namespace

BENCHMARK_MAIN();
