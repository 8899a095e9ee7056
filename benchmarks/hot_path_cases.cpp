// The hot path's benchmarks, one function per macro and state (hot_path_benchmark.cpp has
// the list, the budgets they are held to and the report): the macros expanded in a loop as a
// program's code has them, so that what is in line there is in line here.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <qprof/detail/clock.hpp>
#include <qprof/detail/recorder.hpp>
#include <qprof/qprof.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "budget_report.hpp"
#include "hot_path_benchmark.hpp"
#include "testing.hpp"

namespace {

namespace detail = qprof::detail;

std::unique_ptr<qprof::Session> counting_session(bool record_keys = false,
                                                 qprof::EventSelection events = {}) {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.record_keys = record_keys;
    options.events = std::move(events);
    options.reporters = {};
    // The collector recycles chunks unread, builds nothing.
    return qprof::testing::session_without_trace(options);
}

// Keys as a build tool's scan has them: paths, and aggregates, taken in turn so that each is
// seen again long after its first time. A path is recorded as its chars (key_record.hpp:
// ShortString, 32 bytes up to 31 chars, 64 up to 63, 128 up to 127; CountedChars, the count and
// the chars, up to 4,096).
struct NodeId {
    std::uint32_t graph;
    std::uint32_t index;
};
constexpr std::uint32_t kDistinctKeys = 1024;  // a power of two, so that cycling costs a mask

enum class PathLength { short_path, medium_path, long_path, very_long_path };

// "src/module3/file200.cc" (about 20 chars), or the same under a directory that makes it 40 to
// 44 chars, 70 to 74, or 139 to 143 (a path in Bazel's output tree).
const std::vector<std::string>& key_paths(PathLength length) {
    static const auto made = [](std::string_view root) {
        std::vector<std::string> paths;
        for (std::uint32_t i = 0; i < kDistinctKeys; ++i) {
            paths.push_back(std::string{root} + "src/module" + std::to_string(i / 64) + "/file" +
                            std::to_string(i) + ".cc");
        }
        return paths;
    };
    static const std::vector<std::string> short_paths = made("");
    static const std::vector<std::string> medium_paths = made("/home/build/project/");
    static const std::vector<std::string> long_paths =
        made("/home/build/checkouts/project/third_party/library/");
    static const std::vector<std::string> very_long_paths = made(
        "/home/build/.cache/bazel/_bazel_build/4f0c1e2d9a8b7c6d5e4f3a2b1c0d9e8f/execroot/"
        "__main__/bazel-out/k8-opt/bin/external/");
    switch (length) {
        case PathLength::short_path:
            return short_paths;
        case PathLength::medium_path:
            return medium_paths;
        case PathLength::long_path:
            return long_paths;
        case PathLength::very_long_path:
            break;
    }
    return very_long_paths;
}

// Says so in the output when the numbers cannot mean what the table claims.
void check_recording(benchmark::State& state, const qprof::Session& session) {
    if (!session.recording()) {
        state.SkipWithError("the session is not recording");
    } else if (detail::g_clock_kind != detail::ClockKind::tsc) {
        state.SetLabel("clock is not the TSC: the floor does not apply");
    }
}

void check_not_recording(benchmark::State& state) {
    if (detail::g_generation.load() != 0) {
        state.SkipWithError("a session is recording; the disabled path is not measured");
    }
}

// The floor: the two clock reads a timed scope makes, and nothing else.
void floor_read_tsc_x2(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(detail::read_tsc());
        benchmark::DoNotOptimize(detail::read_tsc());
    }
}

// For reference: the reads through now(), as the scope makes them (clock kind checked each time).
void reference_now_x2(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(detail::now());
        benchmark::DoNotOptimize(detail::now());
    }
}

// For reference: what the benchmark loop itself costs per iteration.
void reference_empty_loop(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::ClobberMemory();
    }
}

// The ClobberMemory() after each body keeps the compiler from carrying anything the recorder
// loads or stores over to the next iteration, as if every scope were in a separate call.
void enabled_query_scope(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope); }
        benchmark::ClobberMemory();
    }
}

void enabled_query_hit(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit);
        benchmark::ClobberMemory();
    }
}

void enabled_activity_scope(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        { PROFILE_ACTIVITY("bench_activity"); }
        benchmark::ClobberMemory();
    }
}

void enabled_activity_arg_scope(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    std::vector<std::string> units;
    units.reserve(8);
    for (int unit = 0; unit < 8; ++unit) {
        units.push_back("toyc.cgu." + std::to_string(unit));
    }
    std::uint32_t next = 0;
    for (auto _ : state) {
        { PROFILE_ACTIVITY_ARG("bench_activity_arg", units[next++ & 7]); }
        benchmark::ClobberMemory();
    }
}

void enabled_region_switch(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    static constexpr const char* kRegions[] = {"bench_region_a", "bench_region_b"};
    std::uint32_t next = 0;
    for (auto _ : state) {
        qprof::enter_region(kRegions[next++ & 1]);
        benchmark::ClobberMemory();
    }
    qprof::exit_region();
}

void enabled_size(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        qprof::record_size("bench_size", bytes++);
        benchmark::ClobberMemory();
    }
}

void enabled_counter(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session();
    check_recording(state, *session);
    std::int64_t value = 0;
    for (auto _ : state) {
        qprof::counter("bench_counter", value++);
        benchmark::ClobberMemory();
    }
}

void disabled_counter(benchmark::State& state) {
    check_not_recording(state);
    std::int64_t value = 0;
    for (auto _ : state) {
        qprof::counter("bench_counter_off", value++);
        benchmark::ClobberMemory();
    }
}

void keys_query_scope_string(benchmark::State& state, PathLength length) {
    const std::vector<std::string>& paths = key_paths(length);
    const std::unique_ptr<qprof::Session> session = counting_session(true);
    check_recording(state, *session);
    std::uint32_t next = 0;
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope_path, paths[next++ % kDistinctKeys]); }
        benchmark::ClobberMemory();
    }
}

void keys_query_scope_aggregate(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session(true);
    check_recording(state, *session);
    std::uint32_t next = 0;
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope_node, NodeId{1, next++ % kDistinctKeys}); }
        benchmark::ClobberMemory();
    }
}

// AsKey: const std::string&, or std::string_view (a view is not kept, yet a long one is found
// by its chars).
template <typename AsKey>
void keys_query_hit_string(benchmark::State& state, PathLength length) {
    const std::vector<std::string>& paths = key_paths(length);
    const std::unique_ptr<qprof::Session> session = counting_session(true);
    check_recording(state, *session);
    std::uint32_t next = 0;
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit_path, static_cast<AsKey>(paths[next++ % kDistinctKeys]));
        benchmark::ClobberMemory();
    }
}

void keys_query_hit_aggregate(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = counting_session(true);
    check_recording(state, *session);
    std::uint32_t next = 0;
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit_node, NodeId{1, next++ % kDistinctKeys});
        benchmark::ClobberMemory();
    }
}

// A session that leaves hits and one provider out: what the rest pays for the per-site check,
// and what a left-out event costs.
std::unique_ptr<qprof::Session> selecting_session() {
    qprof::EventSelection events;
    events.hits = false;
    events.excluded = {"bench_left_out"};
    return counting_session(false, events);
}

void selecting_query_scope(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = selecting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope_selected); }
        benchmark::ClobberMemory();
    }
}

void selecting_scope_left_out(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = selecting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        { PROFILE_QUERY(bench_left_out); }
        benchmark::ClobberMemory();
    }
}

void selecting_hit_left_out(benchmark::State& state) {
    const std::unique_ptr<qprof::Session> session = selecting_session();
    check_recording(state, *session);
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit_left_out);
        benchmark::ClobberMemory();
    }
}

void disabled_query_scope(benchmark::State& state) {
    check_not_recording(state);
    for (auto _ : state) {
        { PROFILE_QUERY(bench_scope_off); }
        benchmark::ClobberMemory();
    }
}

void disabled_query_hit(benchmark::State& state) {
    check_not_recording(state);
    for (auto _ : state) {
        PROFILE_QUERY_HIT(bench_hit_off);
        benchmark::ClobberMemory();
    }
}

void disabled_activity_scope(benchmark::State& state) {
    check_not_recording(state);
    for (auto _ : state) {
        { PROFILE_ACTIVITY("bench_activity_off"); }
        benchmark::ClobberMemory();
    }
}

}  // namespace

namespace qprof::bench::hot_path {

void register_benchmarks() {
    with_spread(benchmark::RegisterBenchmark("floor/read_tsc_x2", floor_read_tsc_x2));
    with_spread(benchmark::RegisterBenchmark("enabled/query_scope", enabled_query_scope));
    with_spread(benchmark::RegisterBenchmark("enabled/query_hit", enabled_query_hit));
    with_spread(benchmark::RegisterBenchmark("enabled/activity_scope", enabled_activity_scope));
    with_spread(
        benchmark::RegisterBenchmark("enabled/activity_arg_scope", enabled_activity_arg_scope));
    with_spread(benchmark::RegisterBenchmark("enabled/region_switch", enabled_region_switch));
    with_spread(benchmark::RegisterBenchmark("enabled/size", enabled_size));
    with_spread(benchmark::RegisterBenchmark("enabled/counter", enabled_counter));
    with_spread(benchmark::RegisterBenchmark("keys/query_scope_string", keys_query_scope_string,
                                             PathLength::short_path));
    with_spread(benchmark::RegisterBenchmark("keys/query_scope_medium_string",
                                             keys_query_scope_string, PathLength::medium_path));
    with_spread(benchmark::RegisterBenchmark("keys/query_scope_long_string",
                                             keys_query_scope_string, PathLength::long_path));
    with_spread(benchmark::RegisterBenchmark("keys/query_scope_very_long_string",
                                             keys_query_scope_string, PathLength::very_long_path));
    with_spread(
        benchmark::RegisterBenchmark("keys/query_scope_aggregate", keys_query_scope_aggregate));
    with_spread(benchmark::RegisterBenchmark("keys/query_hit_string",
                                             keys_query_hit_string<const std::string&>,
                                             PathLength::short_path));
    with_spread(benchmark::RegisterBenchmark("keys/query_hit_long_string",
                                             keys_query_hit_string<const std::string&>,
                                             PathLength::long_path));
    with_spread(benchmark::RegisterBenchmark("keys/query_hit_very_long_string",
                                             keys_query_hit_string<const std::string&>,
                                             PathLength::very_long_path));
    with_spread(benchmark::RegisterBenchmark("keys/query_hit_very_long_view",
                                             keys_query_hit_string<std::string_view>,
                                             PathLength::very_long_path));
    with_spread(benchmark::RegisterBenchmark("keys/query_hit_aggregate", keys_query_hit_aggregate));
    with_spread(benchmark::RegisterBenchmark("selecting/query_scope", selecting_query_scope));
    with_spread(benchmark::RegisterBenchmark("selecting/scope_left_out", selecting_scope_left_out));
    with_spread(benchmark::RegisterBenchmark("selecting/hit_left_out", selecting_hit_left_out));
    with_spread(benchmark::RegisterBenchmark("disabled/query_scope", disabled_query_scope));
    with_spread(benchmark::RegisterBenchmark("disabled/query_hit", disabled_query_hit));
    with_spread(benchmark::RegisterBenchmark("disabled/activity_scope", disabled_activity_scope));
    with_spread(benchmark::RegisterBenchmark("disabled/counter", disabled_counter));
    with_spread(benchmark::RegisterBenchmark("reference/now_x2", reference_now_x2));
    with_spread(benchmark::RegisterBenchmark("reference/empty_loop", reference_empty_loop));
}

}  // namespace qprof::bench::hot_path
