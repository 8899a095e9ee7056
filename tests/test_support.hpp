// Shared helpers for the tests: a deterministic clock, recording sessions without files,
// and a one-line text form of a thread's tree.
#pragma once

#include <atomic>
#include <filesystem>
#include <qprof/detail/clock.hpp>
#include <qprof/qprof.hpp>
#include <qprof/reporter.hpp>
#include <string>
#include <vector>

#include "testing.hpp"  // the manual clock

namespace qprof::test {

// While alive, every clock read advances time by exactly `step_ns`, so durations are known.
class ManualClock {
  public:
    explicit ManualClock(std::uint64_t step_ns = 1'000'000);
    ~ManualClock();
    ManualClock(const ManualClock&) = delete;
    ManualClock& operator=(const ManualClock&) = delete;
};

// A fresh, empty directory under the system temporary directory, removed at destruction.
class TempDir {
  public:
    TempDir();
    ~TempDir();
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// A small recursive query, traced: type_of(n) asks def_span(n) (a hit), type_of(n - 1) and
// def_span(n) (a run), down to type_of(0). Shared by the reporter tests.
void traced_type_of(int id);

// Options of a recording session that writes no report.
SessionOptions recording_options();

// The trace of `program()` run in a session with `options` (by default recording_options()),
// every clock read `step_ns` after the one before (ManualClock).
template <typename Program>
Trace trace_of(Program&& program, const SessionOptions& options = recording_options(),
               std::uint64_t step_ns = 1'000'000) {
    ManualClock clock{step_ns};
    Session session{options};
    program();
    session.finish();
    return session.trace();
}

// The tree of one thread as text, children in call order: `name(child child)`. Hits are
// prefixed with `+`, activities with `@`, unfinished nodes with `?`.
std::string tree_text(const Trace& trace, std::size_t thread = 0);

// The totals of the provider (or activity) with this name; fails the test if absent.
const ProviderTotals& totals_of(const Trace& trace, const std::string& provider);

std::string read_file(const std::filesystem::path& path);

// A file's bytes as read_stream takes them, read in one call: through istreambuf_iterator, a
// byte at a time, a 700 MB raw stream took 70 s under ThreadSanitizer.
std::vector<unsigned char> read_bytes(const std::filesystem::path& path);

// A file of the source tree's tests/ folder, such as "fuzz/corpus/process-block.qprof".
std::filesystem::path test_source_file(const std::string& relative);

// "provider[key]" for every node of one thread, in post-order; "provider" where it has none.
std::vector<std::string> keyed_nodes(const Trace& trace, std::size_t thread = 0);

// How many times `part` occurs in `text`.
std::size_t count_of(const std::string& text, const std::string& part);

// Sends this process's stderr to `file` while alive, or until text() reads what came.
class CapturedStderr {
  public:
    explicit CapturedStderr(std::filesystem::path file);
    ~CapturedStderr();
    CapturedStderr(const CapturedStderr&) = delete;
    CapturedStderr& operator=(const CapturedStderr&) = delete;
    std::string text();

  private:
    void restore();
    int saved_;
    std::filesystem::path file_;
};

// A program run through the shell: its exit status (when it exited), whether a signal ended
// it, and what it printed.
struct CommandResult {
    int status = -1;
    bool signaled = false;
    std::string out;
    std::string err;
};
// Runs `command` with its output captured in files of `dir`.
CommandResult run_command(const std::string& command, const TempDir& dir);

// `packed` decompressed by Python's zlib module, a decoder we trust: `container` is "gzip",
// "zlib", or "base64-zlib" (a zlib stream as base64 text, as the HTML payload's columns).
std::string decompress_with_python(const std::string& packed, const std::string& container);

// What the reporter `name` writes for `trace`, configured with `options`.
std::string report_text(const std::string& name, const Trace& trace,
                        const ReportOptions& options = {});

// An HTML report without its embedded viewer (<style id="qprof-style">, <script
// id="qprof-viewer">): the viewer changes without the reporter changing.
std::string without_viewer(std::string page);

// Checks `received` against tests/golden/`golden` (an *.approved.* file). When they differ,
// writes it to the current directory as *.received.*, to compare and to approve by copying it
// over the golden file, and fails.
void check_golden(const std::string& received, const std::string& golden);

}  // namespace qprof::test
