// The raw stream round trip: every report made off-line from profile_queries.qprof is byte
// for byte the report the live run wrote.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <latch>
#include <qprof/reporter.hpp>
#include <thread>

#include "raw_reader.hpp"
#include "report_writer.hpp"
#include "test_support.hpp"

using qprof::test::read_file;
using qprof::test::TempDir;

namespace {

struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

const std::vector<std::string> kReporters{"counts", "folded", "html", "chrome", "flamegraph"};

// Nesting, re-entrance, hits, loads and keys of each kind.
void compile(int items) {
    PROFILE_ACTIVITY("analysis");
    for (int i = 0; i < items; ++i) {
        PROFILE_QUERY(typeck, DefId{0, static_cast<std::uint32_t>(i)});
        PROFILE_QUERY_HIT(def_span, i % 7);
        {
            PROFILE_QUERY(type_of, DefId{1, static_cast<std::uint32_t>(i % 3)});
            PROFILE_QUERY(typeck, DefId{2, static_cast<std::uint32_t>(i)});  // re-entered
            // 6, 51, 96 and 141 chars: a string kept as 32 bytes, as 64, as 128, and interned.
            PROFILE_QUERY_HIT(by_name,
                              std::string(i % 4 * 45, '-') + "item " + std::to_string(i % 5));
        }
        PROFILE_QUERY_LOAD(from_disk, i);
    }
}

// Activities with arguments and CPU times, and regions: what format 1.2 added.
void passes(int units) {
    PROFILE_ACTIVITY("code generation");
    for (int unit = 0; unit < units; ++unit) {
        PROFILE_ACTIVITY_ARG("codegen unit", "unit " + std::to_string(unit));
        qprof::enter_region(unit % 2 == 0 ? "even" : "odd");
        PROFILE_QUERY(codegen, unit);
    }
    qprof::enter_region("after the units");
}

struct Run {
    TempDir live;
    qprof::SessionOptions options;
};

qprof::SessionOptions raw_options(const TempDir& dir, bool keys,
                                  std::vector<std::string> reporters) {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.record_keys = keys;
    options.reporters = std::move(reporters);
    options.reporters.push_back("raw");
    options.output_dir = dir.path().string();
    return options;
}

qprof::detail::ReadResult read_bytes(const std::string& bytes, bool keep_nodes = true) {
    return qprof::detail::read_stream(
        {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
        {.keep_nodes = keep_nodes, .progress = {}});
}

qprof::detail::ReadResult read_raw(const TempDir& dir, bool keep_nodes = true) {
    return read_bytes(read_file(dir.path() / "profile_queries.qprof"), keep_nodes);
}

// The trace of the one run in the stream a session wrote into `dir`.
qprof::Trace read_trace(const TempDir& dir, bool keep_nodes = true) {
    qprof::detail::ReadResult read = read_raw(dir, keep_nodes);
    REQUIRE(read.runs.size() == 1);
    return qprof::detail::complete_trace(std::move(read.runs[0].inputs));
}

// A stream written in format 1.1 (before activities' CPU times, regions and the SELECTION
// block), read without a diagnostic: its one run.
qprof::detail::RecordedRun read_format_1_1() {
    const std::string bytes =
        read_file(qprof::test::test_source_file("fuzz/corpus/process-block.qprof"));
    REQUIRE(bytes.size() > 32);
    REQUIRE(bytes[14] == 1);  // minor 1
    qprof::detail::ReadResult read = read_bytes(bytes);
    CHECK(read.diagnostics.empty());
    REQUIRE(read.runs.size() == 1);
    return std::move(read.runs[0]);
}

// Reads the live run's stream back, writes every other report of it again into a second
// directory and compares them with the live ones; returns the trace read back.
qprof::Trace check_round_trip(const TempDir& live, const qprof::SessionOptions& options) {
    qprof::detail::ReadResult read = read_raw(live);
    for (const auto& diagnostic : read.diagnostics) {
        FAIL_CHECK("byte " << diagnostic.offset << ": " << diagnostic.text);
    }
    REQUIRE(read.runs.size() == 1);
    REQUIRE(read.runs[0].complete);
    CHECK(read.runs[0].report == options.report);
    CHECK(read.runs[0].inputs.selection == options.events);
    qprof::Trace trace = qprof::detail::complete_trace(std::move(read.runs[0].inputs));
    TempDir offline;
    qprof::SessionOptions again = options;
    again.output_dir = offline.path().string();
    std::erase(again.reporters, "raw");
    qprof::detail::ReportFiles files{again.output_dir, "profile_queries"};
    REQUIRE(qprof::detail::write_reports(trace, again, files).size() == again.reporters.size());
    for (const std::string& name : again.reporters) {
        const std::string file =
            "profile_queries." + std::string{qprof::make_reporter(name)->file_suffix()};
        INFO(file);
        CHECK(read_file(offline.path() / file) == read_file(live.path() / file));
    }
    return trace;
}

// Runs `program` in a session with `options`, every clock read 1 ms after the one before, then
// checks the round trip of the stream it wrote into `live`; returns the trace read back.
template <typename Program>
qprof::Trace round_trip(const TempDir& live, const qprof::SessionOptions& options,
                        Program&& program) {
    {
        qprof::test::ManualClock clock;
        qprof::Session session{options};
        program();
    }
    return check_round_trip(live, options);
}

}  // namespace

TEST_CASE("reports made from the raw stream equal the live ones, keys and options included") {
    const bool keys = GENERATE(false, true);
    TempDir live;
    std::vector<std::string> reporters = kReporters;
    if (keys) {
        reporters.push_back("keys");
    }
    qprof::SessionOptions options = raw_options(live, keys, reporters);
    options.report.important_extent = 3;
    options.report.folded_hits = true;
    options.report.folded_keys = keys;
    options.report.chrome_hits = true;
    round_trip(live, options, [] { compile(200); });
}

TEST_CASE("activities' arguments and CPU times, and regions, survive the raw stream") {
    TempDir live;
    std::vector<std::string> reporters = kReporters;
    reporters.push_back("keys");
    qprof::SessionOptions options = raw_options(live, false, reporters);
    options.report.folded_args = true;
    const qprof::Trace trace = round_trip(live, options, [] { passes(4); });
    // 1.5 ms each: half the 3 ms of the region's and the query's clock reads in between.
    CHECK(qprof::test::totals_of(trace, "codegen unit").cpu_ns == 6'000'000);
    CHECK(qprof::test::totals_of(trace, "even").is_region);
    CHECK(qprof::test::tree_text(trace) ==
          "@code generation(@codegen unit(@even(codegen)) @codegen unit(@odd(codegen)) "
          "@codegen unit(@even(codegen)) @codegen unit(@odd(codegen)) @after the units)");
    CHECK(trace.name_of(trace.threads[0], 2) == "codegen unit(unit 0)");
}

TEST_CASE("folded classes and folded bytes are report bits of their own") {
    for (const bool classes : {true, false}) {
        TempDir live;
        qprof::SessionOptions options = raw_options(live, false, {});
        options.report.folded_classes = classes;
        options.report.folded_bytes = !classes;
        options.record_memory = !classes;  // bytes need it
        {
            qprof::Session session{options};
            compile(20);
        }
        qprof::detail::ReadResult read = read_raw(live);
        REQUIRE(read.runs.size() == 1);
        CHECK(read.runs[0].report.folded_classes == classes);
        CHECK(read.runs[0].report.folded_bytes == !classes);
    }
}

TEST_CASE("a stream written in format 1.1 still reads") {
    const qprof::Trace trace = qprof::detail::complete_trace(std::move(read_format_1_1().inputs));
    CHECK(trace.events > 0);
    CHECK_FALSE(trace.runs[0].argv.empty());
}

TEST_CASE("the round trip holds with threads named late, threads ended early and open scopes") {
    TempDir live;
    const qprof::SessionOptions options = raw_options(live, true, kReporters);
    {
        qprof::Session session{options};
        std::thread early{[] { compile(300); }};
        early.join();
        std::latch started{1};
        std::latch release{1};
        std::thread late{[&] {
            compile(50);
            qprof::name_this_thread("named late");
            started.count_down();
            release.wait();
        }};
        started.wait();
        PROFILE_QUERY(still_open, 1);  // unfinished when the session ends
        compile(100);
        session.finish();
        release.count_down();
        late.join();
    }
    const qprof::Trace trace = check_round_trip(live, options);
    REQUIRE(trace.threads.size() == 3);
    const auto named = [&](const std::string& name) {
        return std::count_if(trace.threads.begin(), trace.threads.end(),
                             [&](const qprof::ThreadTrace& thread) { return thread.name == name; });
    };
    CHECK(named("named late") == 1);
    CHECK(named("main") == 1);
    const auto unfinished = std::count_if(
        trace.threads.begin(), trace.threads.end(), [](const qprof::ThreadTrace& thread) {
            return std::any_of(thread.nodes.begin(), thread.nodes.end(),
                               [](const qprof::Node& node) { return node.unfinished; });
        });
    CHECK(unfinished == 1);
}

TEST_CASE("a raw and counts run keeps no nodes, and its counts equal a run that kept them") {
    TempDir totals_dir;
    TempDir trees_dir;
    for (TempDir* dir : {&totals_dir, &trees_dir}) {
        const bool trees = dir == &trees_dir;
        qprof::test::ManualClock clock;
        qprof::Session session{
            raw_options(*dir, false, trees ? kReporters : std::vector<std::string>{"counts"})};
        compile(500);
        session.finish();
        CHECK(session.trace().events == 500 * 6 + 1);
        CHECK(session.trace().node_count() == (trees ? 500 * 6 + 1 : 0));
    }
    const std::string counts = read_file(trees_dir.path() / "profile_queries.counts.txt");
    CHECK(read_file(totals_dir.path() / "profile_queries.counts.txt") == counts);
    for (const bool keep_nodes : {false, true}) {
        const qprof::Trace trace = read_trace(totals_dir, keep_nodes);
        CHECK(qprof::test::report_text("counts", trace) == counts);
        CHECK(trace.events == 500 * 6 + 1);
    }
}

TEST_CASE("a raw stream whose name is taken goes to a unique name, never into the other") {
    TempDir dir;
    qprof::SessionOptions options = raw_options(dir, false, {"counts"});
    std::filesystem::create_directory(dir.path() / "profile_queries.qprof");  // in the way
    const std::string unique = "profile_queries-" + std::to_string(::getpid());
    {
        qprof::Session session{options};
        REQUIRE(session.recording());
        { PROFILE_QUERY(after_clash); }
    }
    CHECK(std::filesystem::is_directory(dir.path() / "profile_queries.qprof"));
    CHECK(std::filesystem::is_regular_file(dir.path() / (unique + ".qprof")));
    // The process's later files follow the name its first one took.
    CHECK(std::filesystem::is_regular_file(dir.path() / (unique + ".counts.txt")));
    qprof::Session next{qprof::test::recording_options()};  // recording was not left on
    CHECK(next.recording());
}

TEST_CASE("what a run left out travels in the stream: its reports say it off-line too") {
    TempDir live;
    std::vector<std::string> reporters = kReporters;
    reporters.push_back("keys");
    qprof::SessionOptions options = raw_options(live, true, reporters);
    options.events.hits = false;
    options.events.loads = false;
    options.events.counters = false;  // format 1.3: a bit of its own
    options.events.excluded = {"type_of"};
    options.events.key_providers = {"typeck", "by_name"};
    // The selection read back is the one recorded.
    const qprof::Trace trace = round_trip(live, options, [] { compile(50); });
    CHECK(trace.selection.left_out(true) ==
          "hits, loads, counters; providers type_of; keys only of typeck, by_name");
    for (const qprof::ProviderTotals& provider : trace.providers) {
        INFO(provider.provider);
        CHECK(provider.hits == 0);
        CHECK(provider.load_ns == 0);
        CHECK(provider.provider != "type_of");
    }
}

TEST_CASE("a stream of format 1.1, which has no SELECTION block, reads as recording everything") {
    const qprof::detail::RecordedRun run = read_format_1_1();
    CHECK(run.complete);
    CHECK(run.inputs.selection.everything());
    CHECK_FALSE(run.inputs.run.argv.empty());  // its PROCESS block still reads
}

TEST_CASE("sizes and counters survive the raw stream, with nodes kept or totals only") {
    TempDir live;
    const qprof::SessionOptions options = raw_options(live, false, kReporters);
    {
        qprof::test::ManualClock clock;
        qprof::Session session{options};
        compile(20);
        for (int i = 0; i < 3; ++i) {
            qprof::record_size("object file", 100 + i);
            qprof::counter("live nodes", i * 10 - 5);
        }
        std::thread{[] {
            qprof::name_this_thread("worker");
            qprof::counter("live nodes", 99);
        }}.join();
    }
    check_round_trip(live, options);  // the chrome and html reports carry them
    for (const bool keep_nodes : {true, false}) {
        qprof::detail::ReadResult read = read_raw(live, keep_nodes);
        REQUIRE(read.runs.size() == 1);
        const qprof::Trace trace = qprof::detail::complete_trace(std::move(read.runs[0].inputs));
        REQUIRE(trace.sizes.size() == 1);
        CHECK(trace.sizes[0].name == "object file");
        CHECK(trace.sizes[0].bytes == 303);
        CHECK(trace.sizes[0].records == 3);
        REQUIRE(trace.counters.size() == 1);
        CHECK(trace.counters[0].samples == 4);
        CHECK(trace.counters[0].min == -5);
        CHECK(trace.counters[0].max == 99);
        CHECK(trace.events == 20 * 6 + 1);  // sizes and counters are not events
        if (keep_nodes) {
            REQUIRE(trace.threads.size() == 2);
            REQUIRE(trace.threads[0].counters.size() == 1);
            std::vector<std::int64_t> values;
            for (const qprof::CounterSample& sample : trace.threads[0].counters[0].samples) {
                values.push_back(sample.value);
            }
            CHECK(values == std::vector<std::int64_t>{-5, 5, 15});
            CHECK(trace.threads[1].counters.at(0).samples.at(0).value == 99);
        }
    }
}

TEST_CASE("a stream written in format 1.2 still reads") {
    const std::string bytes =
        read_file(qprof::test::test_source_file("fuzz/corpus/format-1.2.qprof"));
    REQUIRE(bytes.size() > 32);
    REQUIRE(bytes[14] == 2);  // minor 2
    qprof::detail::ReadResult read = qprof::detail::read_stream(
        {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
        {.keep_nodes = true, .progress = {}});
    CHECK(read.diagnostics.empty());
    REQUIRE(read.runs.size() == 1);
    CHECK(read.runs[0].complete);
    const qprof::Trace trace = qprof::detail::complete_trace(std::move(read.runs[0].inputs));
    CHECK(trace.events > 0);
    CHECK(qprof::test::totals_of(trace, "codegen unit").cpu_ns > 0);  // 1.2's cpu records
    CHECK(trace.sizes.empty());
    CHECK(trace.counters.empty());
}

// Under the manual clock of qprof's tests the raw stream keeps no timer: what it writes, and
// when, depends on the records alone (the end, 1 MiB of blocks, or a fatal signal's request),
// never on when the collector wakes. The full chunks of a run longer than the first flush's
// 100 ms are written when the session ends, not on the real clock meanwhile.
TEST_CASE("under the manual clock the raw stream is not written on a timer") {
    const TempDir dir;
    qprof::test::ManualClock clock;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    qprof::Session session{options};
    const std::filesystem::path path = dir.path() / "profile_queries.qprof";
    const std::uintmax_t at_start = std::filesystem::file_size(path);
    for (int i = 0; i < 20'000; ++i) {  // 160 KB of hits: full chunks go to the collector
        PROFILE_QUERY_HIT(filler);
    }
    // Past the first flush's 100 ms and the collector's 5 ms wakes, however loaded the machine.
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    CHECK(std::filesystem::file_size(path) == at_start);
    session.finish();
    CHECK(std::filesystem::file_size(path) > at_start + 20'000 * 8);
}
