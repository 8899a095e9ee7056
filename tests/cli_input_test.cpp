// The qprof tool on hostile inputs and outputs: a chain of queries far deeper than any real
// program's, inputs that are not regular files, and a standard output that fails.
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cli/input.hpp"
#include "deep_trace.hpp"
#include "sanitizers.hpp"
#include "test_support.hpp"

using qprof::test::CommandResult;
using qprof::test::read_file;
using qprof::test::TempDir;

namespace {

// The tool run with `arguments`; without a sanitizer (which reserves terabytes of address
// space) it may use at most 2 GB, so that a regression fails fast instead of swapping.
CommandResult qprof_tool(const std::string& arguments, const TempDir& dir) {
    const std::string limit = qprof::test::kSanitized ? "" : "ulimit -v 2000000; ";
    CommandResult run =
        qprof::test::run_command(limit + std::string(QPROF_TOOL) + " " + arguments, dir);
    INFO("qprof " << arguments << "\n" << run.err);
    REQUIRE_FALSE(run.signaled);
    return run;
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream{path, std::ios::binary} << bytes;
}

// The largest resident size of any child process waited for so far, in MB.
long largest_child_mb() {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return usage.ru_maxrss / 1024;
}

}  // namespace

TEST_CASE("qprof report of a 200,000-deep chain: small reports in little memory") {
    TempDir dir;
    const std::filesystem::path stream = dir.path() / "deep.qprof";
    write_file(stream, qprof::test::deep_chain_stream(200'000));  // 4.8 MB
    const CommandResult run =
        qprof_tool("report " + stream.string() +
                       " --reporters=counts,folded,chrome,flamegraph -q -o " + dir.path().string(),
                   dir);
    CHECK(run.status == 0);
    CHECK(largest_child_mb() < 1000);
    const std::string folded = read_file(dir.path() / "profile_queries.folded");
    CHECK(folded.size() < 4'000'000);  // every line written in full would make 80 GB
    CHECK_THAT(folded, Catch::Contains(";[frames_1000_and_deeper] 398004\n"));
    CHECK(std::filesystem::file_size(dir.path() / "profile_queries.trace.json") < 40'000'000);
    CHECK_THAT(read_file(dir.path() / "profile_queries.counts.txt"),
               Catch::Equals("f,100000,0.000\ng,100000,0.000\n"));
}

TEST_CASE("qprof refuses a device that is no stream at once, and reads a small pipe") {
    TempDir dir;
    const CommandResult zero = qprof_tool("summarize -q /dev/zero", dir);
    CHECK(zero.status == 1);
    CHECK_THAT(zero.err, Catch::Contains("/dev/zero: byte 0: not a qprof stream (expected magic"));
    const std::filesystem::path stream = dir.path() / "small.qprof";
    write_file(stream, qprof::test::deep_chain_stream(10));
    const CommandResult piped = qprof::test::run_command(
        "cat " + stream.string() + " | " + QPROF_TOOL + " summarize -q /dev/stdin", dir);
    CHECK(piped.status == 0);
    CHECK_THAT(piped.out, Catch::Contains("10 events"));
}

TEST_CASE("qprof reads at most its limit from a pipe, and says so") {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    const std::string stream = qprof::test::deep_chain_stream(1000);  // 24 kB: fits the pipe
    REQUIRE(::write(ends[1], stream.data(), stream.size()) == static_cast<ssize_t>(stream.size()));
    ::close(ends[1]);
    const std::string path = "/dev/fd/" + std::to_string(ends[0]);
    try {
        qprof::cli::InputFile file{path, 10'000};
        FAIL("read " << file.bytes().size() << " bytes");
    } catch (const std::runtime_error& error) {
        CHECK_THAT(error.what(), Catch::Contains("not a regular file and holds more than 10,000 "
                                                 "bytes") &&
                                     Catch::Contains("save it to a file first"));
    }
    ::close(ends[0]);
}

TEST_CASE("qprof fails with a message when standard output cannot take its output") {
    TempDir dir;
    const std::filesystem::path stream = dir.path() / "small.qprof";
    write_file(stream, qprof::test::deep_chain_stream(10));
    const std::string s = stream.string();
    const std::string both = s + " " + s;
    for (const std::string& command :
         {"summarize -q --json " + s, "summarize -q " + s, "diff -q --html " + both,
          "diff -q --json " + both, std::string{"summarize --help"}}) {
        INFO(command);
        const CommandResult run = qprof::test::run_command(
            "{ " + std::string(QPROF_TOOL) + " " + command + " >/dev/full; }", dir);
        CHECK(run.status == 1);
        CHECK_THAT(run.err, Catch::Contains("could not be written to standard output (No space "
                                            "left on device); it is incomplete"));
    }
}
