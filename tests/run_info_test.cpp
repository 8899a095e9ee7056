// What a run records about its process (RunInfo): live, through the raw stream and back, from
// a stream of format 1.0 that has none of it, from a damaged PROCESS block; and runs merged on
// one timeline, with one Chrome process each.
#include "run_info.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>

#include "json.hpp"
#include "raw_format.hpp"
#include "raw_reader.hpp"
#include "stack_tree.hpp"
#include "test_support.hpp"
#include "trace_merge.hpp"

using qprof::RunInfo;
using qprof::detail::ReadResult;
using qprof::test::read_file;
using qprof::test::TempDir;
namespace raw = qprof::detail::raw;
namespace json = qprof::test::json;

namespace {

ReadResult read(const std::string& bytes) {
    return qprof::detail::read_stream(
        {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
        {.keep_nodes = true, .progress = {}});
}

// A run with `argv` given as a program gives it to Session(argc, argv), writing a raw stream.
qprof::Trace run_with_args(std::vector<std::string> args, const TempDir& dir) {
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    int argc = static_cast<int>(args.size());
    qprof::SessionOptions options = qprof::parse_flags(argc, argv.data(), nullptr);
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    qprof::Session session{options};
    {
        PROFILE_QUERY(typeck, 1);
        std::vector<char> touched(8 << 20, 1);  // peak RSS grows past 8 MiB
        CHECK(touched.back() == 1);
    }
    session.finish();
    return session.trace();
}

// SESSION and END as format 1.0 wrote them: no PROCESS block, END of 40 bytes.
std::string stream_1_0(std::uint64_t start_unix_ns) {
    std::string out = raw::file_header(0);
    raw::BlockEncoder session{out, raw::BlockType::session, 0};
    for (std::uint64_t field : {std::uint64_t{1000}, std::uint64_t{0}, start_unix_ns}) {
        session.u64(field);
    }
    for (int byte = 0; byte < 4; ++byte) {
        session.u8(byte == 0 ? 2 : 0);  // manual clock
    }
    session.u32(6);
    session.f64(1.0);
    session.u32(4321);
    session.u32(0);
    session.str("old");
    session.finish();
    raw::BlockEncoder end{out, raw::BlockType::end, 1};
    for (std::uint64_t field : {std::uint64_t{5000}, std::uint64_t{0}}) {
        end.u64(field);
    }
    end.f64(1.0);
    end.u64(0);
    end.u64(2);
    end.finish();
    return out;
}

// One run of `program` starting at `start_unix_ns`, with one 1 ms scope 2 ms in.
qprof::Trace one_run(const std::string& program, std::uint32_t pid, std::int64_t start_unix_ns) {
    qprof::Trace trace;
    trace.sites.push_back({"typeck", "a.cpp", 1, 0});
    trace.providers.push_back({.provider = "typeck", .count = 1, .misses = 1});
    qprof::ThreadTrace& thread = trace.threads.emplace_back();
    thread.name = "main";
    thread.nodes.push_back(qprof::Node{.start = 2'000'000, .end = 3'000'000});
    thread.nodes.push_back(qprof::Node{.outcome = qprof::Outcome::hit, .first = 1});
    trace.wall_ns = 4'000'000;
    trace.events = 2;
    trace.program = program;
    trace.pid = pid;
    RunInfo& run = trace.runs.emplace_back();
    run.program = program;
    run.pid = pid;
    run.start_unix_ns = start_unix_ns;
    run.wall_ns = trace.wall_ns;
    run.events = trace.events;
    return trace;
}

}  // namespace

TEST_CASE("a run records its command line, ids, directory, host, times and peak RSS") {
    TempDir dir;
    const std::int64_t before = qprof::detail::unix_now_ns();
    const qprof::Trace trace =
        run_with_args({"/bin/run_info_test", "--items", "3", "-Zprofile-queries", "a b\x1b"}, dir);
    const std::int64_t after = qprof::detail::unix_now_ns();
    REQUIRE(trace.runs.size() == 1);
    const RunInfo& run = trace.runs.front();
    CHECK(run.argv == std::vector<std::string>{"/bin/run_info_test", "--items", "3",
                                               "-Zprofile-queries", "a b\x1b"});
    CHECK(run.pid == static_cast<std::uint32_t>(::getpid()));
    CHECK(run.parent_pid == static_cast<std::uint32_t>(::getppid()));
    CHECK(run.working_directory == std::filesystem::current_path().string());
    CHECK_FALSE(run.host.empty());
    CHECK(before <= run.start_unix_ns);
    CHECK(run.start_unix_ns <= run.end_unix_ns);
    CHECK(run.end_unix_ns <= after);
    CHECK(run.peak_rss_bytes >= (8u << 20));
    CHECK(run.events == 1);
    CHECK(run.wall_ns == trace.wall_ns);

    SECTION("the raw stream carries all of it") {
        ReadResult result = read(read_file(dir.path() / "profile_queries.qprof"));
        REQUIRE(result.diagnostics.empty());
        REQUIRE(result.runs.size() == 1);
        const RunInfo& back = result.runs.front().inputs.run;
        CHECK(back.argv == run.argv);
        CHECK(back.program == run.program);
        CHECK(back.pid == run.pid);
        CHECK(back.parent_pid == run.parent_pid);
        CHECK(back.working_directory == run.working_directory);
        CHECK(back.host == run.host);
        CHECK(back.start_unix_ns == run.start_unix_ns);
        CHECK(back.end_unix_ns == run.end_unix_ns);
        CHECK(back.peak_rss_bytes == run.peak_rss_bytes);
    }
}

TEST_CASE("without argc and argv, the command line comes from /proc/self/cmdline") {
    qprof::Session session{qprof::test::recording_options()};
    session.finish();
    REQUIRE(session.trace().runs.size() == 1);
    const std::vector<std::string>& argv = session.trace().runs.front().argv;
    REQUIRE_FALSE(argv.empty());
    CHECK_THAT(argv.front(), Catch::Contains("run_info_test"));
    CHECK(qprof::detail::split_cmdline(std::string_view{"a\0\0b c\0", 7}) ==
          std::vector<std::string>{"a", "", "b c"});
}

TEST_CASE("a stream of format 1.0 reads, with what SESSION says and nothing more") {
    ReadResult result = read(stream_1_0(1'700'000'000'000'000'000));
    INFO((result.diagnostics.empty() ? "" : result.diagnostics.front().text));
    REQUIRE(result.diagnostics.empty());
    REQUIRE(result.runs.size() == 1);
    const RunInfo& run = result.runs.front().inputs.run;
    CHECK(run.program == "old");
    CHECK(run.pid == 4321);
    CHECK(run.start_unix_ns == 1'700'000'000'000'000'000);
    CHECK(run.argv.empty());
    CHECK(run.host.empty());
    CHECK(run.end_unix_ns == 0);
    CHECK(run.peak_rss_bytes == 0);
}

TEST_CASE("a PROCESS block that declares more arguments than it holds is corrupt at the count") {
    std::string bytes = stream_1_0(1);
    bytes.resize(raw::kFileHeaderBytes + raw::kBlockHeaderBytes + 56);  // SESSION: 48 + "old"
    const std::size_t process_at = bytes.size();
    raw::BlockEncoder process{bytes, raw::BlockType::process, 1};
    process.u32(1);
    process.u32(1000);  // arguments, but none follows
    process.str("/tmp");
    process.str("host");
    process.finish();
    ReadResult result = read(bytes);
    REQUIRE_FALSE(result.diagnostics.empty());
    const qprof::detail::Diagnostic& error = result.diagnostics.front();
    CHECK(error.severity == qprof::detail::Diagnostic::Severity::error);
    CHECK(error.offset == process_at + raw::kBlockHeaderBytes + 4);
    CHECK_THAT(error.text, Catch::Contains("1000 arguments declared"));
    CHECK(result.damaged);
    CHECK(raw::block_name(static_cast<std::uint16_t>(raw::BlockType::process)) == "PROCESS");
}

TEST_CASE("merged runs stand on one timeline, in order of their start") {
    std::vector<qprof::Trace> runs;
    runs.push_back(one_run("late", 30, 1'000'000'000 + 5'000'000));
    runs.push_back(one_run("first", 10, 1'000'000'000));
    runs.push_back(one_run("second", 20, 1'000'000'000 + 1'000'000));
    const qprof::Trace merged = qprof::detail::merge_traces(std::move(runs));
    REQUIRE(merged.runs.size() == 3);
    CHECK(merged.runs[0].program == "first");
    CHECK(merged.runs[1].program == "second");
    CHECK(merged.runs[2].program == "late");
    CHECK(merged.runs[0].start_offset_ns == 0);
    CHECK(merged.runs[1].start_offset_ns == 1'000'000);
    CHECK(merged.runs[2].start_offset_ns == 5'000'000);
    CHECK(merged.wall_ns == 9'000'000);  // the late run ends 5 + 4 ms after the first start
    CHECK(merged.events == 6);
    REQUIRE(merged.threads.size() == 3);
    CHECK(merged.threads[2].name == "late[30] main");
    CHECK(merged.threads[2].run == 2);
    CHECK(merged.threads[2].nodes[0].start == 7'000'000);
    CHECK(merged.threads[2].nodes[0].end == 8'000'000);
    CHECK(merged.threads[2].nodes[1].start == 0);  // a hit read no clock

    SECTION("the Chrome trace has one process per run, named after its program") {
        const json::Value doc = json::parse(qprof::test::report_text("chrome", merged));
        std::vector<std::string> names;
        std::vector<std::string> labels;
        std::vector<double> event_pids;
        for (const json::Value& event : doc["traceEvents"].items) {
            if (event["name"].text == "process_name") {
                names.push_back(event["pid"].text + " " + event["args"]["name"].text);
            } else if (event["name"].text == "process_labels") {
                labels.push_back(event["pid"].text + " " + event["args"]["labels"].text);
            } else if (event["ph"].text == "X") {
                event_pids.push_back(event["pid"].number);
                if (event["pid"].number == 3) {
                    CHECK(event["ts"].text == "7000.000");
                }
            }
        }
        CHECK(names == std::vector<std::string>{"1 first", "2 second", "3 late"});
        CHECK(labels == std::vector<std::string>{"1 pid 10", "2 pid 20", "3 pid 30"});
        CHECK(event_pids == std::vector<double>{1, 2, 3});
    }
}

TEST_CASE("start times far apart are held 2^50 ns apart, so that no time overflows") {
    std::vector<qprof::Trace> runs;
    runs.push_back(one_run("a", 1, 0));
    runs.push_back(one_run("b", 2, INT64_MAX));
    const qprof::Trace merged = qprof::detail::merge_traces(std::move(runs));
    CHECK(merged.runs[1].start_offset_ns == std::int64_t{1} << 50);
    CHECK(merged.threads[1].nodes[0].start == (std::int64_t{1} << 50) + 2'000'000);
}

TEST_CASE("the stacks of a merged build start at the program, then the thread by its own name") {
    std::vector<qprof::Trace> runs;
    runs.push_back(one_run("toyc", 10, 1'000'000'000));
    runs.push_back(one_run("toyc", 11, 1'002'000'000));
    runs.push_back(one_run("linker", 12, 1'009'000'000));
    const qprof::Trace merged = qprof::detail::merge_traces(std::move(runs));
    const qprof::detail::StackTree tree{merged, {}};
    std::vector<std::string> paths;
    for (std::uint32_t f = 0; f < tree.frames().size(); ++f) {
        std::string path;
        for (const std::uint32_t step : tree.path(f)) {
            path += (path.empty() ? "" : ";") + tree.frames()[step].name;
        }
        const qprof::detail::StackFrame& frame = tree.frames()[f];
        paths.push_back(path + " " + std::to_string(frame.count) + " " +
                        std::to_string(frame.total_ns));
    }
    CHECK(paths == std::vector<std::string>{"toyc 2 2000000", "toyc;main 2 2000000",
                                            "toyc;main;typeck 2 2000000", "linker 1 1000000",
                                            "linker;main 1 1000000",
                                            "linker;main;typeck 1 1000000"});
    CHECK(qprof::test::report_text("folded", merged) ==
          "linker;main;typeck 1000000\ntoyc;main;typeck 2000000\n");
    const std::string page = qprof::test::report_text("flamegraph", merged);
    CHECK_THAT(page, Catch::Contains("\"all processes\""));
    CHECK_THAT(page, Catch::Contains("\"total_ns\":3000000"));  // no time counted twice
}
