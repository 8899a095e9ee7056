// The writer never makes a stream its own reader refuses: more threads, deeper scopes or
// longer names than a stream can hold are capped at record time, with one warning each.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <qprof/detail/record_limits.hpp>
#include <qprof/query.hpp>
#include <random>
#include <thread>
#include <vector>

#include "raw_reader.hpp"
#include "sanitizers.hpp"
#include "test_support.hpp"
#include "trace_completion.hpp"

namespace {

struct RawRun {
    qprof::detail::ReadResult read;
    qprof::Trace trace;
};

// Records with `record` in a session that writes only the raw stream, then reads it back.
template <typename Record>
RawRun record_and_read(const qprof::test::TempDir& dir, std::string& err, Record record) {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    {
        qprof::test::CapturedStderr captured{dir.path() / "stderr.txt"};
        qprof::Session session{options};
        record();
        session.finish();
        err = captured.text();
    }
    const std::vector<unsigned char> bytes =
        qprof::test::read_bytes(dir.path() / "profile_queries.qprof");
    RawRun run{qprof::detail::read_stream(bytes, {}), {}};
    for (const auto& diagnostic : run.read.diagnostics) {
        FAIL_CHECK("at byte " << diagnostic.offset << ": " << diagnostic.text);
    }
    REQUIRE(run.read.runs.size() == 1);
    CHECK(run.read.runs[0].complete);
    run.trace = qprof::detail::complete_trace(std::move(run.read.runs[0].inputs));
    return run;
}

}  // namespace

TEST_CASE("scopes nested deeper than a stream can hold are left out, with one warning") {
    using qprof::detail::kMaxRecordedDepth;
    static qprof::detail::Site nested{"nested", __FILE__, __LINE__, qprof::detail::SiteKind::query};
    qprof::test::TempDir dir;
    std::string err;
    const RawRun run = record_and_read(dir, err, [] {
        // On the heap, not the stack: a recursion this deep would overflow it.
        std::vector<std::unique_ptr<qprof::detail::ScopeGuard>> scopes;
        for (std::uint32_t depth = 0; depth < kMaxRecordedDepth + 10; ++depth) {
            scopes.push_back(std::make_unique<qprof::detail::ScopeGuard>(
                nested, qprof::detail::RecordKind::miss));
        }
        PROFILE_QUERY_HIT(deepest_hit);
        while (!scopes.empty()) {
            scopes.pop_back();  // innermost first
        }
    });
    CHECK(qprof::test::count_of(err, "nested more than 1,048,575 deep") == 1);
    const qprof::ThreadTrace& thread = run.trace.threads.at(0);
    REQUIRE(thread.nodes.size() == kMaxRecordedDepth + 1);
    CHECK(thread.nodes.front().depth == kMaxRecordedDepth);  // the hit, under the deepest scope
    CHECK(qprof::test::totals_of(run.trace, "nested").count == kMaxRecordedDepth);
}

TEST_CASE("names longer than a stream block can hold are cut, with one warning") {
    qprof::test::TempDir dir;
    std::string err;
    const std::string long_name(17u << 20, 'n');
    const RawRun run = record_and_read(dir, err, [&] {
        std::thread named{[&] {
            qprof::name_this_thread(long_name);
            PROFILE_QUERY_HIT(on_named_thread);
        }};
        named.join();
        qprof::Query<int, int> long_query{long_name + "q", [](const int& n) { return n; }};
        long_query(1);
    });
    CHECK(qprof::test::count_of(err, "longer than 1 MiB is cut") == 1);
    REQUIRE(run.trace.threads.size() == 2);
    CHECK(run.trace.threads[0].name == long_name.substr(0, qprof::detail::kMaxNameBytes));
    bool found_query = false;
    for (const auto& site : run.trace.sites) {
        found_query |= site.provider == long_name.substr(0, qprof::detail::kMaxNameBytes);
    }
    CHECK(found_query);
}

TEST_CASE("threads past what a stream can name run unrecorded, with one warning") {
    if (qprof::test::kThreadSanitizer) {
        WARN(
            "skipped under ThreadSanitizer, which keeps state for each of these 65,541 threads: "
            "minutes and gigabytes; the normal and AddressSanitizer builds run it");
        return;
    }
    using qprof::detail::kMaxRecordedThreads;
    qprof::test::TempDir dir;
    std::string err;
    const RawRun run = record_and_read(dir, err, [] {
        for (std::uint32_t i = 0; i < kMaxRecordedThreads + 5; ++i) {
            std::thread{[] { PROFILE_QUERY_HIT(one_per_thread); }}.join();
        }
    });
    CHECK(qprof::test::count_of(err, "more than 65,536 threads") == 1);
    CHECK(run.trace.threads.size() == kMaxRecordedThreads);
    CHECK(qprof::test::totals_of(run.trace, "one_per_thread").hits == kMaxRecordedThreads);
}

TEST_CASE("ticks become nanoseconds rounded half away from zero, within the int64 limit") {
    const auto reference = [](std::int64_t ticks, double ns_per_tick) {
        const double ns = std::round(static_cast<double>(ticks) * ns_per_tick);
        return static_cast<std::int64_t>(std::clamp(ns, -9.2e18, 9.2e18));
    };
    std::mt19937_64 rng{14};
    for (const double ns_per_tick : {0.5, 0.25, 0.3846153846, 1.5, 2.0 / 3.0, 1e-9, 7.25e9}) {
        const qprof::detail::TickConverter to_ns{0, ns_per_tick};
        for (const std::int64_t ticks :
             {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{3}, std::int64_t{-3},
              std::int64_t{5}, std::int64_t{-5}, std::int64_t{1} << 53, (std::int64_t{1} << 53) + 1,
              std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
            INFO(ticks << " ticks at " << ns_per_tick << " ns each");
            CHECK(to_ns.duration(ticks) == reference(ticks, ns_per_tick));
        }
        for (int i = 0; i < 10'000; ++i) {
            const auto ticks = static_cast<std::int64_t>(rng() >> (rng() % 64));
            INFO(ticks << " ticks at " << ns_per_tick << " ns each");
            CHECK(to_ns.duration(ticks) == reference(ticks, ns_per_tick));
            CHECK(to_ns.duration(-ticks) == reference(-ticks, ns_per_tick));
        }
    }
    CHECK(qprof::detail::TickConverter{0, 0.5}.duration(5) == 3);  // 2.5: away from zero
    CHECK(qprof::detail::TickConverter{0, 0.5}.duration(-5) == -3);
    CHECK(qprof::detail::TickConverter{0, 1.0}.duration(5) == 5);
}
