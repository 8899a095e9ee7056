// The raw stream's bytes, checked against tests/golden/raw_stream.approved.txt: a small run
// that makes the writer emit every block and record kind it can, recorded by a session with
// -Z profile-queries=raw, and a calibration sample (which the writer takes only from a real
// clock) written by the writer itself. What would differ from run to run is fixed here: the
// manual clock gives the times, set_manual_run the process, #line the sites' file and lines.
// An executable of its own, so that its sites and key types are the process's first.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <string>

#include "raw_writer.hpp"
#include "test_support.hpp"

using qprof::test::TempDir;

namespace {

// The process as the test describes it: the same on every machine.
qprof::RunInfo fixed_run() {
    qprof::RunInfo run;
    run.program = "golden";
    run.argv = {"golden", "-Z", "profile-queries=raw"};
    run.pid = 4242;
    run.parent_pid = 4241;
    run.working_directory = "/work/golden";
    run.host = "golden-host";
    run.start_unix_ns = 1'700'000'000'000'000'000;
    run.end_unix_ns = 1'700'000'001'000'000'000;
    run.peak_rss_bytes = 64u << 20;
    return run;
}

// Sixteen bytes a line: offset, bytes in hex, and the printable ones as text.
void append_hex_lines(std::string& out, const std::string& bytes, std::size_t begin,
                      std::size_t end) {
    for (std::size_t line = begin; line < end; line += 16) {
        char offset[24];
        std::snprintf(offset, sizeof offset, "  %08zx ", line);
        std::string hex = offset;
        std::string text;
        for (std::size_t at = line; at < line + 16; ++at) {
            if (at < end) {
                const auto byte = static_cast<unsigned char>(bytes[at]);
                char digits[4];
                std::snprintf(digits, sizeof digits, " %02x", byte);
                hex += digits;
                text += byte >= 0x20 && byte < 0x7f ? static_cast<char>(byte) : '.';
            } else {
                hex += "   ";
            }
        }
        out.append(hex).append("  |").append(text).append("|\n");
    }
}

// The stream as text, block by block (each named by its header's type), for a reviewer to
// read and a diff to point at. Reads only the framing, so a damaged stream still prints.
std::string hexdump(const std::string& bytes) {
    namespace raw = qprof::detail::raw;
    std::string out = "file header\n";
    std::size_t at = std::min(bytes.size(), raw::kFileHeaderBytes);
    append_hex_lines(out, bytes, 0, at);
    for (std::uint32_t index = 0; at < bytes.size(); ++index) {
        std::uint16_t type = 0;
        std::uint32_t length = 0;
        if (bytes.size() - at >= raw::kBlockHeaderBytes) {
            std::memcpy(&type, bytes.data() + at, sizeof type);
            std::memcpy(&length, bytes.data() + at + 4, sizeof length);
        }
        const std::size_t end = std::min<std::size_t>(bytes.size(), at + 16 + length);
        out += "block #" + std::to_string(index) + " " + std::string{raw::block_name(type)} + ", " +
               std::to_string(length) + " payload bytes\n";
        append_hex_lines(out, bytes, at, end);
        at = end;
    }
    return out;
}

struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

// Everything the writer can emit, once or twice: queries with keys of four kinds (a struct,
// an integer, a string of 69 chars in 16 words, one of 134 as counted chars), hits, a load, a wait,
// activities (one with an argument, one that ends with a cpu record), a classed query (a CLASSES
// block), a region, a size, a counter, a provider left out (a SELECTION block), memory records
// behind every scope, and scopes still open at the end. The sites' file and lines are this file's
// as #line sets them.
#line 1 "golden.cpp"
void golden_program(qprof::Session& session) {
    qprof::name_this_thread("main");
    PROFILE_ACTIVITY_ARG("codegen unit", "unit 1");
    qprof::enter_region("front end");
    {
        PROFILE_QUERY(typeck, DefId{0, 7});
        PROFILE_QUERY_HIT(def_span, 7);
        PROFILE_QUERY_HIT(def_span, std::string(130, '-') + "span");  // counted chars
        // Each macro's call on one line: over several, g++ and clang number it differently.
        const std::string path{
            "/home/build/checkouts/project/front_end/items/item_0007/definition.rs"};
        PROFILE_QUERY_LOAD(from_disk, path);
        PROFILE_QUERY(left_out);
    }
    { PROFILE_WAIT("join workers"); }
    {
        PROFILE_ACTIVITY("parse");  // finished: its cpu record follows
    }
    PROFILE_QUERY_CLASS(layout_of, "layout", 3);
    qprof::record_size("object file", 1234);
    qprof::counter("live nodes", -5);
    PROFILE_QUERY(open_at_the_end);
    session.finish();
}
#line 118 "raw_golden_test.cpp"

// The session's stream of golden_program.
std::string session_stream() {
    TempDir dir;
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.record_keys = true;
    options.record_memory = true;
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    options.events.excluded = {"left_out"};
    options.report.folded_hits = true;
    options.report.chrome_keys = true;
    options.report.important_extent = 3;
    options.report.important_percent = 2.5;
    qprof::testing::set_manual_run(fixed_run());
    {
        qprof::test::ManualClock clock;
        qprof::Session session{options};
        golden_program(session);
    }
    qprof::testing::set_manual_run(std::nullopt);
    return qprof::test::read_file(dir.path() / "profile_queries.qprof");
}

// A stream of SESSION, one CLOCK sample and END, written by the writer itself: the sample is
// taken only from a real clock, which a session would read at a time no test can fix.
std::string clock_stream() {
    TempDir dir;
    const std::string path = (dir.path() / "clock.qprof").string();
    qprof::detail::RawSession session;
    session.block.process = fixed_run();
    session.block.start_tick = 1000;
    session.block.start_steady_ns = 2000;
    {
        qprof::detail::RawWriter writer{path, session};
        writer.tick(
            +[]() -> std::uint64_t { return 51'000'000; }, 50'002'000);
        writer.finish({.end_tick = 60'000'000,
                       .end_steady_ns = 60'002'000,
                       .ns_per_tick = 1.0,
                       .events = 0,
                       .process = fixed_run(),
                       .blocks = 0,
                       .at = {}},
                      {});
    }
    return qprof::test::read_file(path);
}

}  // namespace

TEST_CASE("the raw stream's bytes are the approved ones, every block and record kind") {
    // The calibration stream first: a writer writes every site the process has registered, so
    // written after the session's run it would hold that run's sites too. (As operands of one
    // expression the two ran in an order the compiler chose: clang's was the other one.)
    const std::string clock = hexdump(clock_stream());
    const std::string text = "a session's run (-Z profile-queries=raw, keys, memory)\n" +
                             hexdump(session_stream()) + "\na calibration sample\n" + clock;
    for (const char* block : {"SESSION", "PROCESS", "SELECTION", "SITES", "CLASSES", "THREAD",
                              "KEY_TYPES", "KEY_TEXTS", "RECORDS", "CLOCK", "END"}) {
        INFO(block);
        CHECK(qprof::test::count_of(text, std::string{" "} + block + ",") > 0);
    }
    qprof::test::check_golden(text, "raw_stream.approved.txt");
}
