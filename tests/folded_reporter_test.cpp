// profile_queries.folded: the golden file, each -Z profile-queries-folded option, and names
// made safe for flame graph tools.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "deep_trace.hpp"
#include "test_support.hpp"

namespace {

using qprof::test::traced_type_of;

void typeck(int id) {
    PROFILE_QUERY(typeck, id);
    traced_type_of(id);
    PROFILE_QUERY_HIT(type_of, id);
}

void compile() {
    {
        PROFILE_ACTIVITY("type checking");
        typeck(2);
        typeck(1);
        PROFILE_QUERY_LOAD(mir, 1);
    }
    traced_type_of(0);
    {
        PROFILE_ACTIVITY_ARG("codegen unit", "a.o");  // an argument, in frames only when asked
        traced_type_of(1);
    }
    std::thread{[] {
        qprof::name_this_thread("codegen worker");
        {
            PROFILE_QUERY_CLASS(codegen, "codegen", 0);  // no suffix unless asked
            traced_type_of(1);
        }
        traced_type_of(0);
    }}.join();
}

qprof::Trace compile_trace(bool keys = false) {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = keys;
    return qprof::test::trace_of(compile, options);  // every clock read advances 1 ms
}

std::string folded(const qprof::Trace& trace, const qprof::ReportOptions& options = {}) {
    return qprof::test::report_text("folded", trace, options);
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in{text};
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

// Every line as flamegraph.pl, inferno and speedscope read it, and in byte order.
void check_tool_friendly(const std::string& text) {
    const std::regex line_form{"[^ ]+( [0-9]+)"};
    const std::vector<std::string> lines = lines_of(text);
    for (const std::string& line : lines) {
        INFO(line);
        CHECK(std::regex_match(line, line_form));
        CHECK(line.substr(line.rfind(' ') + 1) != "0");
    }
    CHECK(std::is_sorted(lines.begin(), lines.end()));
    CHECK(std::adjacent_find(lines.begin(), lines.end()) == lines.end());
}

// The trace with memory, as -Z profile-queries-memory would give it: each finished timed node
// allocated 1000 + 100 * depth bytes of its own, its children's on top (inclusive).
qprof::Trace with_memory(qprof::Trace trace) {
    for (qprof::ThreadTrace& thread : trace.threads) {
        thread.memory.resize(thread.nodes.size());
        std::vector<std::pair<std::uint32_t, std::uint64_t>> pending;  // depth, inclusive bytes
        for (std::size_t i = 0; i < thread.nodes.size(); ++i) {        // post-order
            const qprof::Node& node = thread.nodes[i];
            std::uint64_t children = 0;
            while (!pending.empty() && pending.back().first > node.depth) {
                children += pending.back().second;
                pending.pop_back();
            }
            if (node.outcome == qprof::Outcome::hit || node.unfinished) {
                pending.emplace_back(node.depth, children);  // carries none, passes them up
                continue;
            }
            const std::uint64_t bytes = 1000 + 100 * std::uint64_t{node.depth} + children;
            thread.memory[i] = {bytes, 1, static_cast<std::int64_t>(bytes / 4)};
            pending.emplace_back(node.depth, bytes);
        }
    }
    trace.memory_recorded = true;
    return trace;
}

qprof::ReportOptions bytes_options() {
    qprof::ReportOptions options;
    options.folded_bytes = true;
    return options;
}

}  // namespace

TEST_CASE("folded matches the golden file") {
    const std::string received = folded(compile_trace());
    check_tool_friendly(received);
    qprof::test::check_golden(received, "folded.approved.txt");
}

TEST_CASE("folded args and folded classes: golden files of the same trace") {
    const qprof::Trace trace = compile_trace();
    qprof::ReportOptions options;
    options.folded_args = true;  // codegen_unit(a.o)
    const std::string args = folded(trace, options);
    check_tool_friendly(args);
    qprof::test::check_golden(args, "folded_args.approved.txt");
    options = {};
    options.folded_classes = true;  // codegen_[codegen]
    const std::string classes = folded(trace, options);
    check_tool_friendly(classes);
    qprof::test::check_golden(classes, "folded_classes.approved.txt");
    // Without either option, folded.approved.txt: no argument, no class suffix.
    const std::string plain = folded(trace);
    CHECK(plain.find("(a.o)") == std::string::npos);
    CHECK(plain.find("_[codegen]") == std::string::npos);
}

TEST_CASE("folded values add up to each thread's recorded time") {
    const qprof::Trace trace = compile_trace();
    std::map<std::string, std::int64_t> per_thread;
    for (const std::string& line : lines_of(folded(trace))) {
        per_thread[line.substr(0, line.find(';'))] += std::stoll(line.substr(line.rfind(' ')));
    }
    std::map<std::string, std::int64_t> recorded;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        for (std::uint32_t root : thread.roots()) {
            std::string name = thread.name;
            std::replace(name.begin(), name.end(), ' ', '_');
            recorded[name] += thread.nodes[root].duration_ns();
        }
    }
    CHECK(per_thread == recorded);
    CHECK(per_thread.size() == 2);  // main and codegen_worker
}

TEST_CASE("folded merge-threads: stacks start at the providers, equal stacks add up") {
    qprof::ReportOptions options;
    options.folded_merge_threads = true;
    const std::string text = folded(compile_trace(), options);
    check_tool_friendly(text);
    CHECK(text.find("main") == std::string::npos);
    CHECK(text.find("all threads") == std::string::npos);
    CHECK_THAT(text, Catch::StartsWith("codegen 2000000\ncodegen;type_of 3000000\n"));
    CHECK_THAT(text, Catch::EndsWith("\ntype_of 2000000\n"));  // one root type_of per thread
}

TEST_CASE("folded hits: leaves ending in _[i], valued by their count") {
    qprof::ReportOptions options;
    options.folded_hits = true;
    const std::string text = folded(compile_trace(), options);
    check_tool_friendly(text);
    CHECK_THAT(text, Catch::Contains("\nmain;type_checking;typeck;type_of_[i] 2\n") &&
                         Catch::Contains("\nmain;type_checking;typeck;type_of;def_span_[i] 2\n") &&
                         Catch::Contains("\ncodegen_worker;codegen;type_of;def_span_[i] 1\n"));
    // Without the option no hit appears and the rest is unchanged.
    const std::string plain = folded(compile_trace());
    CHECK(plain.find("_[i]") == std::string::npos);
    for (const std::string& line : lines_of(plain)) {
        CHECK_THAT(text, Catch::Contains(line + "\n"));
    }
}

TEST_CASE("folded keys: one frame per provider and key, only when asked") {
    const qprof::Trace trace = compile_trace(true);
    qprof::ReportOptions options;
    options.folded_keys = true;
    const std::string text = folded(trace, options);
    check_tool_friendly(text);
    CHECK_THAT(text, Catch::Contains("\nmain;type_checking;typeck(2);type_of(2);type_of(1) "));
    CHECK(folded(trace) == folded(compile_trace()));  // recorded keys alone change nothing
}

TEST_CASE("folded: whitespace becomes '_', ';' becomes ':', loads end in _[j]") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    std::thread{[] {
        qprof::name_this_thread("worker\t1");
        PROFILE_ACTIVITY("mir;build  all\n");
        PROFILE_QUERY_NAMED("type of", 0);
        PROFILE_QUERY_LOAD_NAMED("a;b c", 0);
    }}.join();
    session.finish();
    const std::string text = folded(session.trace());
    check_tool_friendly(text);
    CHECK(text ==
          "worker_1;mir:build__all_ 2000000\n"
          "worker_1;mir:build__all_;type_of 2000000\n"
          "worker_1;mir:build__all_;type_of;a:b_c_[j] 1000000\n");
}

TEST_CASE("folded: blocked waits end in _[k]; stacks equal after sanitising are merged") {
    qprof::Trace trace;
    for (const char* name : {"type of", "type_of"}) {
        trace.providers.emplace_back().provider = name;
        trace.sites.emplace_back().provider = name;
        trace.sites.back().provider_index = static_cast<std::uint32_t>(trace.sites.size() - 1);
    }
    auto node = [](std::uint32_t site, qprof::Outcome outcome, std::int64_t start,
                   std::int64_t end) {
        qprof::Node made;
        made.site = site;
        made.outcome = outcome;
        made.start = start;
        made.end = end;
        return made;
    };
    // "type of" [0, 10] holding a blocked "type_of" [2, 5], then a root "type_of" [20, 23].
    qprof::ThreadTrace& thread = trace.threads.emplace_back();
    thread.name = "main";
    qprof::Node blocked = node(1, qprof::Outcome::blocked, 2, 5);
    blocked.depth = 1;
    qprof::Node outer = node(0, qprof::Outcome::miss, 0, 10);
    outer.extent = 1;
    qprof::Node root = node(1, qprof::Outcome::miss, 20, 23);
    root.first = 2;
    thread.nodes = {blocked, outer, root};
    CHECK(folded(trace) ==
          "main;type_of 10\n"
          "main;type_of;type_of_[k] 3\n");
}

TEST_CASE("folded: a 100,000-deep chain takes memory linear in the trace, lines cut at 1000") {
    // Every line repeats the frames above it: kept whole, the stacks of this chain would
    // take 10 GB. The 1000th frame and those below it are summed into one last frame instead.
    constexpr std::uint32_t kDepth = 100'000;
    const std::string text = folded(qprof::test::deep_chain_trace(kDepth));
    check_tool_friendly(text);
    const std::vector<std::string> lines = lines_of(text);
    REQUIRE(lines.size() == 999);  // "main" has no self time; f and g at depths 2 to 999
    std::int64_t total = 0;
    std::size_t most_frames = 0;
    for (const std::string& line : lines) {
        total += std::stoll(line.substr(line.rfind(' ')));
        most_frames =
            std::max<std::size_t>(most_frames, std::count(line.begin(), line.end(), ';') + 1);
    }
    CHECK(total == 2 * std::int64_t{kDepth});  // every node's 2 ns, none lost
    CHECK(most_frames == 1000);
    CHECK(lines.front() == "main;f 2");
    CHECK_THAT(text, Catch::Contains(";g;[frames_1000_and_deeper] " +
                                     std::to_string(2 * (kDepth - 998)) + "\n"));
    CHECK(text.size() < 4'000'000);
}

TEST_CASE("folded bytes: each stack valued by its self allocated bytes, golden file") {
    const qprof::Trace trace = with_memory(compile_trace());
    const std::string text = folded(trace, bytes_options());
    check_tool_friendly(text);
    qprof::test::check_golden(text, "folded_bytes.approved.txt");
    CHECK(folded(trace) == folded(compile_trace()));  // without the option: time, as before
}

TEST_CASE("folded bytes: the values add up to each thread's top-level allocated bytes") {
    const qprof::Trace trace = with_memory(compile_trace());
    std::map<std::string, std::int64_t> per_thread;
    for (const std::string& line : lines_of(folded(trace, bytes_options()))) {
        per_thread[line.substr(0, line.find(';'))] += std::stoll(line.substr(line.rfind(' ')));
    }
    std::map<std::string, std::int64_t> allocated;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        std::string name = thread.name;
        std::replace(name.begin(), name.end(), ' ', '_');
        for (std::uint32_t root : thread.roots()) {
            allocated[name] += static_cast<std::int64_t>(thread.memory[root].allocated_bytes);
        }
    }
    CHECK(per_thread == allocated);
    CHECK(per_thread.size() == 2);
}

TEST_CASE("folded bytes: a run without memory is refused, naming -Z profile-queries-memory") {
    CHECK_THROWS_WITH(folded(compile_trace(), bytes_options()),
                      Catch::Contains("-Z profile-queries-memory"));
}
