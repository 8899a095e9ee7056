// The qprof tool as a user runs it, on saved runs of the example compiler: reports equal to
// the live ones, diffs with the right signs, merged runs, and damaged files that end in a
// message and an exit status, never a signal.
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>

#include "json.hpp"
#include "test_support.hpp"

using qprof::test::CommandResult;
using qprof::test::read_file;
using qprof::test::TempDir;
namespace json = qprof::test::json;

namespace {

CommandResult qprof_tool(const std::string& arguments, const TempDir& dir) {
    CommandResult run = qprof::test::run_command(std::string(QPROF_TOOL) + " " + arguments, dir);
    INFO("qprof " << arguments << "\n" << run.err);
    REQUIRE_FALSE(run.signaled);
    return run;
}

// toyc run with -Z profile-queries=REPORTERS into `dir`; returns the stream's path.
std::string toyc_run(const std::string& arguments, const std::string& reporters,
                     const TempDir& dir) {
    const CommandResult run = qprof::test::run_command(
        std::string(QPROF_TOYC) + " " + arguments + " -Z profile-queries=" + reporters +
            " -Z profile-queries-dir=" + dir.path().string(),
        dir);
    INFO(run.err);
    REQUIRE(run.status == 0);
    return (dir.path() / "profile_queries.qprof").string();
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream{path, std::ios::binary} << bytes;
}

const json::Value* provider_row(const json::Value& doc, const std::string& name) {
    for (const json::Value& row : doc["providers"].items) {
        if (row["provider"].text == name) {
            return &row;
        }
    }
    return nullptr;
}

// The bytes of the size of this name in the stream's summary (toyc's "object file"), or -1.
double size_bytes_of(const std::string& stream, const std::string& name, const TempDir& dir) {
    const CommandResult run = qprof_tool("summarize --json " + stream, dir);
    REQUIRE(run.status == 0);
    const json::Value doc = json::parse(run.out);
    for (const json::Value& size : doc["sizes"].items) {
        if (size["name"].text == name) {
            return size["bytes"].number;
        }
    }
    return -1;
}

double events_of(const std::string& stream, const TempDir& dir) {
    const CommandResult run = qprof_tool("summarize --json " + stream, dir);
    REQUIRE(run.status == 0);
    return json::parse(run.out)["events"].number;
}

const std::regex kByteOffset{"qprof: error: [^:]+: byte [0-9]+: "};

}  // namespace

TEST_CASE("qprof and each of its commands explain themselves") {
    TempDir dir;
    const CommandResult help = qprof_tool("--help", dir);
    CHECK(help.status == 0);
    for (const std::string command : {"summarize", "report", "diff", "merge"}) {
        CHECK_THAT(help.out, Catch::Contains(command));
        const CommandResult own = qprof_tool(command + " --help", dir);
        CHECK(own.status == 0);
        CHECK_THAT(own.out, Catch::StartsWith("Usage: qprof " + command));
    }
    const CommandResult typo = qprof_tool("sumarize x.qprof", dir);
    CHECK(typo.status == 1);
    CHECK_THAT(typo.err, Catch::Contains("Did you mean 'summarize'?"));
    const CommandResult option = qprof_tool("summarize --sortt=self x.qprof", dir);
    CHECK(option.status == 1);
    CHECK_THAT(option.err, Catch::Contains("Did you mean '--sort'?"));
}

TEST_CASE("qprof report writes, from toyc's stream, the very reports toyc wrote") {
    TempDir live;
    const std::string stream =
        toyc_run("--items 400 --threads 2", "raw,counts,folded,html,keys", live);
    TempDir offline;
    const CommandResult run = qprof_tool(
        "report " + stream + " --reporters=counts,folded,html -o " + offline.path().string(),
        offline);
    REQUIRE(run.status == 0);
    for (const std::string file : {"counts.txt", "folded", "html"}) {
        INFO(file);
        CHECK(read_file(offline.path() / ("profile_queries." + file)) ==
              read_file(live.path() / ("profile_queries." + file)));
    }
    // a mistake is said in the words the user typed, the command's options, not as -Z flags
    const CommandResult misspelt = qprof_tool("report " + stream + " --reporters=htm", offline);
    CHECK(misspelt.status == 1);
    CHECK_THAT(misspelt.err, Catch::Contains("unknown reporter 'htm' in '--reporters=htm'. Did "
                                             "you mean 'html'?") &&
                                 !Catch::Contains("-Z profile-queries"));
    // the valid reporters it lists are those qprof report writes: not raw, its input
    CHECK_THAT(misspelt.err, Catch::Contains("Valid reporters: counts, html, keys, folded, "
                                             "chrome, flamegraph, pprof.") &&
                                 !Catch::Contains("raw"));
    const CommandResult threshold = qprof_tool("report " + stream + " --important=6,200", offline);
    CHECK(threshold.status == 1);
    CHECK_THAT(threshold.err, Catch::Contains("bad value in '--important=6,200'") &&
                                  Catch::Contains("as in '--important=6,1'") &&
                                  !Catch::Contains("-Z profile-queries"));
    const CommandResult raw = qprof_tool("report " + stream + " --reporters=raw", offline);
    CHECK(raw.status == 1);
    CHECK_THAT(raw.err, Catch::Contains("qprof merge"));
    // toyc recorded no memory: weighing by bytes is refused once, before anything is written
    TempDir bytes;
    const CommandResult weighed = qprof_tool(
        "report " + stream + " --reporters=folded --folded=bytes -o " + bytes.path().string(),
        bytes);
    CHECK(weighed.status == 1);
    CHECK_THAT(weighed.err, Catch::Contains("records no allocations") &&
                                Catch::Contains("--folded without 'bytes'"));
    CHECK_FALSE(std::filesystem::exists(bytes.path() / "profile_queries.folded"));
}

TEST_CASE("qprof report writes, from a stream with keys, the very page toyc wrote") {
    TempDir live;
    const std::string stream =
        toyc_run("--items 300 --threads 2 -Z profile-queries-and-keys=raw", "raw,html", live);
    TempDir offline;
    const CommandResult run =
        qprof_tool("report " + stream + " --reporters=html -o " + offline.path().string(), offline);
    REQUIRE(run.status == 0);
    const std::string page = read_file(live.path() / "profile_queries.html");
    CHECK_THAT(page, Catch::Contains("\"keys\":{\"count\":"));  // every key: the page's columns
    CHECK(read_file(offline.path() / "profile_queries.html") == page);
}

TEST_CASE("qprof diff of a small and a larger toyc run shows growth and a new activity") {
    TempDir small_dir;
    TempDir large_dir;
    const std::string small = toyc_run("--items 1000 --threads 1", "raw", small_dir);
    const std::string large = toyc_run("--items 3000 --threads 2", "raw", large_dir);
    const CommandResult diff = qprof_tool("diff --json " + small + " " + large, small_dir);
    REQUIRE(diff.status == 0);
    const json::Value doc = json::parse(diff.out);
    CHECK(doc["new"]["events"].number > doc["base"]["events"].number);
    const json::Value* typeck = provider_row(doc, "typeck");
    REQUIRE(typeck != nullptr);
    CHECK(typeck->find("status")->text == "both");
    CHECK((*typeck)["count_change"].number > 0);
    CHECK((*typeck)["new_self_ns"].number > 0);
    const json::Value* unit = provider_row(doc, "codegen unit");
    REQUIRE(unit != nullptr);
    CHECK((*unit)["status"].text == "only in new");
    CHECK((*unit)["change_percent"].kind == json::Kind::null);
    const CommandResult page = qprof_tool("diff --html " + small + " " + large, small_dir);
    REQUIRE(page.status == 0);
    CHECK_THAT(page.out, Catch::Contains("only in new") && Catch::Contains("typeck"));
}

TEST_CASE("qprof merge combines runs whose summary counts every event once") {
    TempDir dir;
    std::vector<std::string> streams;
    std::vector<std::unique_ptr<TempDir>> run_dirs;
    double events = 0;
    double object_bytes = 0;
    for (int run = 0; run < 3; ++run) {
        run_dirs.push_back(std::make_unique<TempDir>());
        streams.push_back(
            toyc_run("--items " + std::to_string(100 * (run + 1)), "raw", *run_dirs.back()));
        events += events_of(streams.back(), dir);
        object_bytes += size_bytes_of(streams.back(), "object file", dir);
    }
    const std::string merged = (dir.path() / "merged.qprof").string();
    const CommandResult merge = qprof_tool(
        "merge " + streams[0] + " " + streams[1] + " " + streams[2] + " -o " + merged, dir);
    REQUIRE(merge.status == 0);
    CHECK_THAT(merge.err, Catch::Contains("merged 3 runs"));
    CHECK(events_of(merged, dir) == events);
    CHECK(object_bytes > 0);
    CHECK(size_bytes_of(merged, "object file", dir) == object_bytes);  // sizes summed by name
    const CommandResult twice = qprof_tool(
        "merge " + merged + " " + streams[0] + " -o " + (dir.path() / "again.qprof").string(), dir);
    CHECK(twice.status == 0);
    CHECK(events_of((dir.path() / "again.qprof").string(), dir) ==
          events + events_of(streams[0], dir));
}

// More inputs than the merge reads ahead of its writer (a few per core): all of them merged,
// a later one's keys flagged in the header; one refused input leaves the output as it was
// and no temporary file.
TEST_CASE("qprof merge of many inputs: every run once, or nothing written") {
    TempDir dir;
    const std::string plain = toyc_run("--items 100 --threads 1", "raw", dir);
    TempDir keyed_dir;
    const std::string keyed =
        toyc_run("--items 100 --threads 1 -Z profile-queries-and-keys=raw", "raw", keyed_dir);
    const std::filesystem::path inputs = dir.path() / "inputs";
    std::filesystem::create_directory(inputs);
    constexpr int kInputs = 40;
    for (int i = 0; i < kInputs; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "run%02d.qprof", i);
        std::filesystem::copy_file(i == kInputs - 1 ? keyed : plain, inputs / name);
    }
    const std::filesystem::path merged = dir.path() / "build.qprof";
    const CommandResult merge =
        qprof_tool("merge " + inputs.string() + " -o " + merged.string(), dir);
    REQUIRE(merge.status == 0);
    CHECK_THAT(merge.err, Catch::Contains("merged 40 runs") && Catch::Contains("from 40 files"));
    CHECK(events_of(merged.string(), dir) ==
          (kInputs - 1) * events_of(plain, dir) + events_of(keyed, dir));
    const std::string bytes = read_file(merged);
    REQUIRE(bytes.size() > 24);
    CHECK((static_cast<unsigned char>(bytes[20]) & 3) == 3);  // keys (in the last input), merged

    const std::string whole = read_file(plain);
    write_file(inputs / "run30.qprof", whole.substr(0, whole.size() / 2));
    const CommandResult refused =
        qprof_tool("merge " + inputs.string() + " -o " + merged.string(), dir);
    CHECK(refused.status == 1);
    CHECK_THAT(refused.err, Catch::Contains("run30.qprof: not merged"));
    CHECK(read_file(merged) == bytes);
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        INFO(entry.path());
        CHECK_FALSE(entry.path().filename().string().starts_with(".build.qprof"));
    }
}

TEST_CASE("truncated, corrupt and foreign files end in a message and a status, not a signal") {
    TempDir dir;
    const std::string stream = toyc_run("--items 2000 --threads 1", "raw,counts", dir);
    const std::string whole = read_file(stream);
    const std::filesystem::path cut = dir.path() / "cut.qprof";
    write_file(cut, whole.substr(0, whole.size() / 2));
    std::string flipped = whole;
    flipped[whole.size() / 2] ^= 1;
    const std::filesystem::path corrupt = dir.path() / "corrupt.qprof";
    write_file(corrupt, flipped);

    SECTION("a truncated stream is reported up to the cut, with a warning, and exit status 2") {
        const CommandResult run = qprof_tool("summarize " + cut.string(), dir);
        CHECK(run.status == 2);
        CHECK(std::regex_search(run.err, kByteOffset));
        CHECK_THAT(run.err, Catch::Contains("the stream ends inside block #") &&
                                Catch::Contains("warning: ") && Catch::Contains("reporting the"));
        CHECK_THAT(run.out, Catch::Contains("typeck"));
        const CommandResult report = qprof_tool(
            "report " + cut.string() + " --reporters=counts -o " + dir.path().string() + "/cut",
            dir);
        CHECK(report.status == 2);
        CHECK_FALSE(read_file(dir.path() / "cut" / "profile_queries.counts.txt").empty());
        const CommandResult merge = qprof_tool(
            "merge " + stream + " " + cut.string() + " -o " + dir.path().string() + "/m.qprof",
            dir);
        CHECK(merge.status == 1);
        CHECK_THAT(merge.err, Catch::Contains("not merged"));
    }
    SECTION("a corrupt stream names the damaged block and its checksums") {
        const CommandResult run = qprof_tool("summarize " + corrupt.string(), dir);
        CHECK(run.status == 2);
        CHECK(std::regex_search(run.err, kByteOffset));
        CHECK_THAT(run.err, Catch::Contains("checksum mismatch (expected "));
    }
    SECTION("a file that is not a stream is refused with exit status 1") {
        const std::string counts = (dir.path() / "profile_queries.counts.txt").string();
        for (const std::string& command :
             std::vector<std::string>{"summarize ", "report ", "diff " + counts + " "}) {
            const CommandResult run = qprof_tool(command + counts, dir);
            CHECK(run.status == 1);
            CHECK_THAT(run.err, Catch::Contains("byte 0: not a qprof stream (expected magic"));
            // a report given for the stream: the message says which file qprof reads
            CHECK_THAT(run.err, Catch::Contains("qprof reads the stream a run writes with -Z "
                                                "profile-queries=raw (profile_queries.qprof)"));
        }
        const CommandResult missing = qprof_tool("summarize nowhere.qprof", dir);
        CHECK(missing.status == 1);
        CHECK_THAT(missing.err, Catch::Contains("nowhere.qprof: cannot open it"));
    }
}

TEST_CASE("toyc -Z profile-queries-events=-hits records no hit and every report says so") {
    TempDir dir;
    const std::string stream = toyc_run("--items 300 --threads 2 -Z profile-queries-events=-hits",
                                        "raw,counts,folded,chrome,html,flamegraph,keys", dir);
    const json::Value doc = json::parse(qprof_tool("summarize --json " + stream, dir).out);
    CHECK(doc["not_recorded"].text == "hits");
    REQUIRE(provider_row(doc, "typeck") != nullptr);
    for (const json::Value& row : doc["providers"].items) {
        INFO(row["provider"].text);
        CHECK(row["hits"].number == 0);
        CHECK(row["hit_rate"].kind == json::Kind::null);
    }
    const CommandResult table = qprof_tool("summarize " + stream, dir);
    CHECK_THAT(table.out, Catch::Contains("\nnot recorded: hits (hits and hit rates are unknown"));
    CHECK_THAT(read_file(dir.path() / "profile_queries.counts.txt"),
               Catch::StartsWith("# not recorded: hits\n"));
    CHECK_THAT(read_file(dir.path() / "profile_queries.folded"),
               Catch::StartsWith("# not recorded: hits\n"));
    CHECK_THAT(read_file(dir.path() / "profile_queries.trace.json"),
               Catch::Contains(",\"not_recorded\":\"hits\"}}"));
    const std::string html = read_file(dir.path() / "profile_queries.html");
    CHECK_THAT(html, Catch::Contains("<dd id=\"total-hits\">hits not recorded</dd>"));
    CHECK_THAT(html, Catch::Contains("<dd id=\"not-recorded\">hits</dd>"));
    CHECK(qprof::test::count_of(html, ">hits not recorded</td>") >= 8);  // one per provider
    CHECK(html.find(">0.0 %</td>") == std::string::npos);
    CHECK_THAT(read_file(dir.path() / "profile_queries.flamegraph.html"),
               Catch::Contains("<dd id=\"not-recorded\">hits</dd>"));
    TempDir offline;  // the stream says it too, so its reports are the live ones
    REQUIRE(
        qprof_tool("report " + stream + " --reporters=counts,html -o " + offline.path().string(),
                   offline)
            .status == 0);
    for (const std::string file : {"counts.txt", "html"}) {
        INFO(file);
        CHECK(read_file(offline.path() / ("profile_queries." + file)) ==
              read_file(dir.path() / ("profile_queries." + file)));
    }
}

TEST_CASE("toyc -Z profile-queries-events: a provider left out, keys of one provider only") {
    TempDir all_dir;
    TempDir some_dir;
    const double all = events_of(toyc_run("--items 300 --threads 1", "raw", all_dir), all_dir);
    const std::string stream =
        toyc_run("--items 300 --threads 1 -Z profile-queries-events=-symbol_name,keys=typeck",
                 "raw,keys", some_dir);
    const json::Value doc = json::parse(qprof_tool("summarize --json " + stream, some_dir).out);
    CHECK(provider_row(doc, "symbol_name") == nullptr);
    REQUIRE(provider_row(doc, "codegen") != nullptr);
    CHECK(doc["events"].number < all);
    CHECK(doc["not_recorded"].text == "providers symbol_name; keys only of typeck");
    const std::string keys = read_file(some_dir.path() / "profile_queries.keys.txt");
    CHECK_THAT(keys, Catch::Contains("\ntypeck\tDefId{"));
    CHECK(keys.find("\nborrowck\t") == std::string::npos);
    CHECK_THAT(keys, Catch::Contains("# not recorded: providers symbol_name; keys only of typeck"));
}
