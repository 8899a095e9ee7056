// Sizes and counters (qprof::record_size, qprof::counter): sums per name, a series per thread
// in the order recorded, recorded only while a session records and only what it selects, from
// many threads at once.
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "trace_merge.hpp"

using qprof::CounterSample;
using qprof::Trace;

namespace {

Trace recorded(const qprof::EventSelection& events, void (*program)()) {
    qprof::test::ManualClock clock;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.events = events;
    qprof::Session session{options};
    program();
    session.finish();
    return session.trace();
}

const qprof::SizeTotals* size_named(const Trace& trace, const std::string& name) {
    for (const qprof::SizeTotals& size : trace.sizes) {
        if (size.name == name) {
            return &size;
        }
    }
    return nullptr;
}

const qprof::ThreadTrace* thread_named(const Trace& trace, const std::string& name) {
    for (const qprof::ThreadTrace& thread : trace.threads) {
        if (thread.name == name) {
            return &thread;
        }
    }
    return nullptr;
}

std::vector<std::int64_t> values_of(const qprof::CounterSeries& series) {
    std::vector<std::int64_t> values;
    for (const CounterSample& sample : series.samples) {
        values.push_back(sample.value);
    }
    return values;
}

void emit_objects() {
    PROFILE_ACTIVITY("code generation");
    qprof::record_size("object file", 1000);
    qprof::record_size("object file", 24);
    qprof::record_size("debug info", 7);
    std::thread{[] {
        qprof::name_this_thread("worker");
        qprof::record_size("object file", 3);
    }}.join();
}

void count_nodes() {
    qprof::counter("live nodes", 5);
    {
        PROFILE_QUERY(typeck, 1);
        qprof::counter("live nodes", 7);
        qprof::counter("queue", -2);
    }
    qprof::counter("live nodes", 3);
    std::thread{[] {
        qprof::name_this_thread("worker");
        qprof::counter("live nodes", 40);
    }}.join();
}

}  // namespace

TEST_CASE("sizes are summed per name over every thread, and make no node") {
    const Trace trace = recorded({}, emit_objects);
    REQUIRE(trace.sizes.size() == 2);
    CHECK(trace.sizes[0].name == "object file");  // in order of first use
    CHECK(trace.sizes[0].bytes == 1027);
    CHECK(trace.sizes[0].records == 3);
    CHECK(trace.sizes[1].name == "debug info");
    CHECK(trace.sizes[1].bytes == 7);
    CHECK(trace.sizes[1].records == 1);
    CHECK(trace.events == 1);  // the activity alone
    CHECK(qprof::test::tree_text(trace) == "@code generation");
    CHECK(trace.counters.empty());
}

TEST_CASE("a counter is a series per thread, in the order recorded, at the time of each value") {
    const Trace trace = recorded({}, count_nodes);
    REQUIRE(trace.counters.size() == 2);
    CHECK(trace.counters[0].name == "live nodes");
    CHECK(trace.counters[0].samples == 4);
    CHECK(trace.counters[0].min == 3);
    CHECK(trace.counters[0].max == 40);
    CHECK(trace.counters[1].name == "queue");
    CHECK(trace.counters[1].min == -2);
    const qprof::ThreadTrace* main = thread_named(trace, "main");
    REQUIRE(main != nullptr);
    REQUIRE(main->counters.size() == 2);
    CHECK(main->counters[0].counter == 0);
    CHECK(values_of(main->counters[0]) == std::vector<std::int64_t>{5, 7, 3});
    CHECK(values_of(main->counters[1]) == std::vector<std::int64_t>{-2});
    // Each value reads the clock once, as the scope does at entry and exit: 1 ms a read.
    const std::vector<CounterSample>& live = main->counters[0].samples;
    const qprof::Node& typeck = main->nodes[0];
    CHECK(live[0].time_ns < typeck.start);
    CHECK(live[1].time_ns == typeck.start + 1'000'000);
    CHECK(main->counters[1].samples[0].time_ns == live[1].time_ns + 1'000'000);
    CHECK(live[2].time_ns > typeck.end);
    // A thread that recorded only counter values is still a thread of the trace.
    const qprof::ThreadTrace* worker = thread_named(trace, "worker");
    REQUIRE(worker != nullptr);
    CHECK(worker->nodes.empty());
    REQUIRE(worker->counters.size() == 1);
    CHECK(values_of(worker->counters[0]) == std::vector<std::int64_t>{40});
    for (const std::string& reporter : qprof::reporter_names()) {  // a thread without nodes
        if (reporter == "raw") {
            continue;  // written while the program runs, never from a trace
        }
        INFO(reporter);
        CHECK_FALSE(qprof::test::report_text(reporter, trace).empty());
    }
}

TEST_CASE("sizes and counters are recorded only while a session records") {
    qprof::record_size("before", 1);
    qprof::counter("before", 1);
    Trace trace;
    {
        qprof::Session session{qprof::test::recording_options()};
        qprof::record_size("during", 2);
        qprof::counter("during", 2);
        session.finish();
        qprof::record_size("after", 3);
        qprof::counter("after", 3);
        trace = session.trace();
    }
    REQUIRE(trace.sizes.size() == 1);
    CHECK(trace.sizes[0].name == "during");
    REQUIRE(trace.counters.size() == 1);
    CHECK(trace.counters[0].name == "during");
}

TEST_CASE("-Z profile-queries-events leaves sizes, counters or one of them by name out") {
    qprof::EventSelection neither;
    neither.sizes = false;
    neither.counters = false;
    const Trace none = recorded(neither, [] {
        emit_objects();
        count_nodes();
    });
    CHECK(none.sizes.empty());
    CHECK(none.counters.empty());
    CHECK(none.selection.left_out(false) == "sizes, counters");
    CHECK(qprof::test::tree_text(none) == "@code generation typeck");

    qprof::EventSelection no_queue;
    no_queue.excluded = {"queue", "debug info"};
    const Trace some = recorded(no_queue, [] {
        emit_objects();
        count_nodes();
    });
    REQUIRE(some.counters.size() == 1);
    CHECK(some.counters[0].name == "live nodes");
    REQUIRE(some.sizes.size() == 1);
    CHECK(size_named(some, "object file") != nullptr);
}

TEST_CASE("many threads record sizes and counters at once: every value, each in its order") {
    constexpr int kThreads = 4;
    constexpr int kValues = 20'000;  // several chunks per thread
    Trace trace;
    {
        qprof::Session session{qprof::test::recording_options()};
        std::vector<std::thread> threads;
        threads.reserve(kThreads);
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([t] {
                qprof::name_this_thread("thread " + std::to_string(t));
                for (int i = 0; i < kValues; ++i) {
                    qprof::counter("progress", i);
                    qprof::record_size(i % 2 == 0 ? "even" : "odd", 2);
                }
            });
        }
        for (std::thread& thread : threads) {
            thread.join();
        }
        session.finish();
        trace = session.trace();
    }
    REQUIRE(size_named(trace, "even") != nullptr);
    CHECK(size_named(trace, "even")->bytes == kThreads * kValues);
    CHECK(size_named(trace, "odd")->records == kThreads * kValues / 2);
    REQUIRE(trace.counters.size() == 1);
    CHECK(trace.counters[0].samples == kThreads * kValues);
    CHECK(trace.counters[0].max == kValues - 1);
    for (int t = 0; t < kThreads; ++t) {
        const qprof::ThreadTrace* thread = thread_named(trace, "thread " + std::to_string(t));
        REQUIRE(thread != nullptr);
        REQUIRE(thread->counters.size() == 1);
        const std::vector<CounterSample>& samples = thread->counters[0].samples;
        REQUIRE(samples.size() == kValues);
        bool in_order = true;
        for (int i = 0; i < kValues; ++i) {
            in_order = in_order && samples[i].value == i &&
                       (i == 0 || samples[i].time_ns >= samples[i - 1].time_ns);
        }
        CHECK(in_order);
    }
}

TEST_CASE("a merge sums sizes by name and moves each run's counter values to its start") {
    Trace first = recorded({}, count_nodes);
    Trace second = recorded({}, [] {
        emit_objects();
        qprof::counter("queue", 9);
    });
    first.runs.at(0).start_unix_ns = 1'000'000'000;
    second.runs.at(0).start_unix_ns = 1'005'000'000;  // 5 ms later
    std::vector<Trace> runs;
    runs.push_back(std::move(first));
    runs.push_back(std::move(second));
    const Trace merged = qprof::detail::merge_traces(std::move(runs));
    REQUIRE(merged.counters.size() == 2);
    CHECK(merged.counters[1].name == "queue");
    CHECK(merged.counters[1].samples == 2);
    CHECK(merged.counters[1].max == 9);
    REQUIRE(merged.sizes.size() == 2);
    CHECK(merged.sizes[0].bytes == 1027);
    const qprof::ThreadTrace* later = nullptr;
    for (const qprof::ThreadTrace& thread : merged.threads) {
        if (thread.run == 1 && !thread.counters.empty()) {
            later = &thread;
        }
    }
    REQUIRE(later != nullptr);
    CHECK(later->counters[0].counter == 1);  // the merged trace's "queue"
    CHECK(later->counters[0].samples[0].time_ns >= 5'000'000);
}
