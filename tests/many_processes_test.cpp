// A build that starts many profiled processes at once, all writing into one directory: each
// keeps a complete, readable set of reports, and `qprof merge DIR` adds them all up.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "json.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using qprof::test::CommandResult;
using qprof::test::TempDir;
namespace json = qprof::test::json;

namespace {

constexpr int kProcesses = 8;

CommandResult qprof_tool(const std::string& arguments, const TempDir& dir) {
    CommandResult run = qprof::test::run_command(std::string(QPROF_TOOL) + " " + arguments, dir);
    INFO("qprof " << arguments << "\n" << run.err);
    REQUIRE_FALSE(run.signaled);
    return run;
}

double events_of(const std::string& stream, const TempDir& dir) {
    const CommandResult run = qprof_tool("summarize --json " + stream, dir);
    INFO(run.err);
    REQUIRE(run.status == 0);
    return json::parse(run.out)["events"].number;
}

// Starts kProcesses toyc runs at once into `out`; fails unless every one exits 0.
void run_at_once(const fs::path& out, const TempDir& dir) {
    const std::string toyc = std::string(QPROF_TOYC) +
                             " --items 400 -Z profile-queries=raw,counts,html"
                             " -Z profile-queries-dir=" +
                             out.string();
    const std::string script = "pids=; for i in $(seq " + std::to_string(kProcesses) + "); do " +
                               toyc + " >/dev/null 2>>" + (dir.path() / "runs.err").string() +
                               " & pids=\"$pids $!\"; done; "
                               "status=0; for p in $pids; do wait $p || status=1; done; "
                               "exit $status";
    const CommandResult run = qprof::test::run_command("bash -c '" + script + "'", dir);
    INFO(qprof::test::read_file(dir.path() / "runs.err"));
    REQUIRE(run.status == 0);
}

}  // namespace

TEST_CASE("8 processes writing into one directory keep 8 complete sets; merge DIR sums them") {
    TempDir dir;
    const fs::path out = dir.path() / "profiles";
    run_at_once(out, dir);

    std::map<std::string, std::set<std::string>> suffixes_by_stem;
    for (const fs::directory_entry& entry : fs::directory_iterator(out)) {
        const std::string name = entry.path().filename().string();
        INFO(name);
        CHECK_FALSE(name.starts_with("."));  // no temporary file left behind
        const std::size_t dot = name.find('.');
        REQUIRE(dot != std::string::npos);
        suffixes_by_stem[name.substr(0, dot)].insert(name.substr(dot + 1));
    }
    REQUIRE(suffixes_by_stem.size() == kProcesses);
    double events = 0;
    for (const auto& [stem, suffixes] : suffixes_by_stem) {
        INFO(stem);
        CHECK(suffixes == std::set<std::string>{"counts.txt", "html", "qprof"});
        const std::string counts = qprof::test::read_file(out / (stem + ".counts.txt"));
        CHECK(counts.find("codegen,") != std::string::npos);
        CHECK(qprof::test::read_file(out / (stem + ".html")).find("</html>") != std::string::npos);
        const std::string stream = (out / (stem + ".qprof")).string();
        events += events_of(stream, dir);
        CHECK_THAT(qprof_tool("summarize " + stream, dir).out,
                   Catch::Contains("\nprogram: toyc (pid "));
    }
    CHECK(events > 0);

    const fs::path merged = dir.path() / "merged.qprof";
    const CommandResult merge = qprof_tool("merge " + out.string() + " -o " + merged.string(), dir);
    INFO(merge.err);
    REQUIRE(merge.status == 0);
    CHECK(events_of(merged.string(), dir) == events);
}
