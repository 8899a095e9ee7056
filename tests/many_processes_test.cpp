// A build that starts many profiled processes at once, all writing into one directory: each
// keeps a complete, readable set of reports, and `qprof merge DIR` adds them all up. A build
// of processes started one after another stands on one timeline once merged.
#include <catch2/catch.hpp>
#include <cmath>
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

// Six toyc runs of different sizes in three waves: one alone, then two at once, then three at
// once after a pause. Returns the --items of each, in the order the waves started them.
std::vector<std::string> run_in_waves(const fs::path& out, const TempDir& dir) {
    const std::string script =
        "t() { " + std::string(QPROF_TOYC) + " --items $1 -Z profile-queries=raw" +
        " -Z profile-queries-dir=" + out.string() +
        " -Z profile-queries-name=%n-%p >/dev/null 2>>" + (dir.path() / "runs.err").string() +
        "; }; t 200 || exit 1; t 600 & a=$!; t 300 & b=$!; wait $a && wait $b || exit 1; "
        "sleep 0.05; t 100 & a=$!; t 800 & b=$!; t 400 & c=$!; "
        "wait $a && wait $b && wait $c";
    const CommandResult run = qprof::test::run_command("bash -c '" + script + "'", dir);
    INFO(qprof::test::read_file(dir.path() / "runs.err"));
    REQUIRE(run.status == 0);
    return {"200", "600", "300", "100", "800", "400"};
}

// Whether the complete events of each (pid, tid) nest: each starts after the one open before
// it has ended, or ends inside it.
bool events_nest_per_thread(const json::Value& trace) {
    std::map<std::pair<double, double>, std::vector<std::pair<std::int64_t, std::int64_t>>> spans;
    const auto ns = [](const json::Value& us) {
        return static_cast<std::int64_t>(std::llround(us.number * 1000));
    };
    for (const json::Value& event : trace["traceEvents"].items) {
        if (event["ph"].text == "X") {
            spans[{event["pid"].number, event["tid"].number}].emplace_back(
                ns(event["ts"]), ns(event["ts"]) + ns(event["dur"]));
        }
    }
    for (const auto& [thread, list] : spans) {
        std::vector<std::int64_t> open_ends;
        for (const auto& [start, end] : list) {  // pre-order: a parent before its children
            while (!open_ends.empty() && start >= open_ends.back()) {
                open_ends.pop_back();
            }
            if (!open_ends.empty() && end > open_ends.back()) {
                return false;
            }
            open_ends.push_back(end);
        }
    }
    return true;
}

}  // namespace

TEST_CASE("a build of 6 processes in waves: merged, they stand in order of their real start") {
    TempDir dir;
    const fs::path out = dir.path() / "profiles";
    const std::vector<std::string> items = run_in_waves(out, dir);
    double parts = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(out)) {
        parts += events_of(entry.path().string(), dir);
    }
    const fs::path merged = dir.path() / "build.qprof";
    REQUIRE(qprof_tool("merge " + out.string() + " -o " + merged.string(), dir).status == 0);

    const CommandResult listed =
        qprof_tool("summarize --by-process --json " + merged.string(), dir);
    REQUIRE(listed.status == 0);
    const json::Value doc = json::parse(listed.out);
    CHECK(doc["events"].number == parts);
    const std::vector<json::Value>& processes = doc["processes"].items;
    REQUIRE(processes.size() == 6);
    double summed = 0;
    for (std::size_t i = 0; i < processes.size(); ++i) {
        const json::Value& process = processes[i];
        INFO(i);
        summed += process["events"].number;
        CHECK(process["program"].text == "toyc");
        REQUIRE(process["argv"].items.size() >= 3);
        CHECK(process["argv"][1].text == "--items");
        CHECK(process["argv"][4].text == "profile-queries=raw");  // -Z flags are kept
        CHECK(process["peak_rss_bytes"].number > 0);
        CHECK(process["end_unix_ns"].number >= process["start_unix_ns"].number);
        if (i == 0) {
            CHECK(process["start_offset_ns"].number == 0);
            CHECK(process["argv"][2].text == items[0]);  // the first wave ran alone
        } else {
            // Every later run started after the first had ended, in order of start.
            CHECK(process["start_offset_ns"].number >= processes[0]["wall_ns"].number);
            CHECK(process["start_offset_ns"].number >= processes[i - 1]["start_offset_ns"].number);
            CHECK(process["start_unix_ns"].number - processes[0]["start_unix_ns"].number ==
                  Approx(process["start_offset_ns"].number).margin(1024));
        }
    }
    CHECK(summed == parts);
    std::multiset<std::string> waves_2{processes[1]["argv"][2].text, processes[2]["argv"][2].text};
    CHECK(waves_2 == std::multiset<std::string>{"600", "300"});
    std::multiset<std::string> wave_3;
    for (std::size_t i = 3; i < processes.size(); ++i) {
        wave_3.insert(processes[i]["argv"][2].text);
    }
    CHECK(wave_3 == std::multiset<std::string>{"100", "800", "400"});
    CHECK(processes[3]["start_offset_ns"].number >=
          processes[1]["start_offset_ns"].number + processes[1]["wall_ns"].number);

    const fs::path reports = dir.path() / "reports";
    REQUIRE(
        qprof_tool("report " + merged.string() + " --reporters=chrome -o " + reports.string(), dir)
            .status == 0);
    const json::Value chrome =
        json::parse(qprof::test::read_file(reports / "profile_queries.trace.json"));
    std::set<double> named_pids;
    for (const json::Value& event : chrome["traceEvents"].items) {
        if (event["name"].text == "process_name") {
            CHECK(event["args"]["name"].text == "toyc");
            named_pids.insert(event["pid"].number);
        }
    }
    CHECK(named_pids == std::set<double>{1, 2, 3, 4, 5, 6});
    CHECK(events_nest_per_thread(chrome));
}

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
