// A whole build in one profile: `qprof merge` of many saved runs, and `qprof summarize` of the
// merged file, each timed as the user runs it (the qprof tool as a process) with its peak
// resident memory. Budget (docs/architecture.md): 1,000 runs of 100 k events merged in well
// under a minute on two cores, in memory that does not grow with the number of runs, and the
// merged file summarized in seconds.
//
//   $ ./merge_benchmark                                        # 20 runs: a moment, as in CI
//   $ QPROF_MERGE_RUNS=1000 ./merge_benchmark --benchmark_repetitions=3   # the build (3.1 GB)
//
// QPROF_MERGE_EVENTS sets the events per run (default 100000). The runs come from the synthetic
// workload of benchmarks/record_workload.hpp (three threads each), written by the raw writer
// into a temporary directory, one process id and start time each, 3 ms apart.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "raw_writer.hpp"
#include "record_workload.hpp"

extern char** environ;

namespace {

namespace detail = qprof::detail;
namespace fs = std::filesystem;
using qprof::bench::Slice;
using qprof::bench::Workload;

constexpr std::int64_t kStartUnixNs = 1'795'000'000'000'000'000;  // 2026-11-18
constexpr std::int64_t kStaggerNs = 3'000'000;

std::uint64_t setting(const char* name, std::uint64_t fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && std::strtoull(text, nullptr, 10) > 0
               ? std::strtoull(text, nullptr, 10)
               : fallback;
}

// The saved runs of a build, written once per process of the benchmark.
class Build {
  public:
    Build()
        : runs_(setting("QPROF_MERGE_RUNS", 20)),
          dir_(fs::temp_directory_path() /
               ("qprof_merge_benchmark_" + std::to_string(::getpid()))) {
        fs::create_directories(dir_ / "runs");
        Workload workload{3, setting("QPROF_MERGE_EVENTS", 100'000), 7};
        std::vector<Slice> slices;
        workload.for_each_slice([&](Slice slice) { slices.push_back(std::move(slice)); });
        events_per_run_ = workload.events();
        for (std::uint64_t run = 0; run < runs_; ++run) {
            write_run(run, slices, workload.end_tick());
        }
    }

    ~Build() {
        std::error_code error;
        fs::remove_all(dir_, error);
    }

    Build(const Build&) = delete;
    Build& operator=(const Build&) = delete;

    std::string runs_dir() const { return (dir_ / "runs").string(); }
    std::string merged() const { return (dir_ / "build.qprof").string(); }
    std::uint64_t runs() const { return runs_; }
    std::uint64_t events() const { return runs_ * events_per_run_; }

  private:
    void write_run(std::uint64_t run, const std::vector<Slice>& slices, std::uint64_t end_tick) {
        detail::RawSession session;
        session.block.clock = detail::ClockKind::manual;  // ticks are nanoseconds
        session.block.process.program = "cc1plus";
        session.block.process.pid = static_cast<std::uint32_t>(10'000 + run);
        session.block.process.argv = {"cc1plus", "unit" + std::to_string(run) + ".cpp"};
        session.block.process.start_unix_ns =
            kStartUnixNs + static_cast<std::int64_t>(run) * kStaggerNs;
        char name[32];
        std::snprintf(name, sizeof name, "run%05llu.qprof", static_cast<unsigned long long>(run));
        detail::RawWriter writer{(dir_ / "runs" / name).string(), session};
        for (const Slice& slice : slices) {
            const std::uint64_t* begin = slice.words.data();
            writer.records(slice.thread, begin, begin + slice.words.size(), nullptr);
        }
        detail::raw::EndBlock end{end_tick, end_tick, 1.0, events_per_run_, session.block.process};
        end.process.end_unix_ns =
            session.block.process.start_unix_ns + static_cast<std::int64_t>(end_tick);
        writer.finish(end, {"main", "worker 1", "worker 2"});
        if (writer.failed()) {
            throw std::runtime_error("cannot write the runs into " + dir_.string());
        }
    }

    std::uint64_t runs_;
    std::uint64_t events_per_run_ = 0;
    fs::path dir_;
};

const Build& build() {
    static const Build instance;
    return instance;
}

struct ToolRun {
    int status = -1;
    double seconds = 0;
    double cpu_seconds = 0;  // user and system, all its threads
    double peak_rss_mib = 0;
};

// The qprof tool with `arguments`, its output thrown away (a failure shows in its status): how long
// it took, and its peak RSS.
ToolRun run_tool(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), QPROF_TOOL);
    std::vector<char*> argv;
    argv.reserve(arguments.size() + 1);
    for (std::string& argument : arguments) {
        argv.push_back(argument.data());
    }
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    ToolRun run;
    const auto began = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0) {
        rusage usage{};
        if (::wait4(pid, &run.status, 0, &usage) == pid) {
            run.peak_rss_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;  // kB
            const auto seconds = [](timeval t) {
                return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
            };
            run.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
        }
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    posix_spawn_file_actions_destroy(&actions);
    return run;
}

void report(benchmark::State& state, const std::vector<ToolRun>& runs) {
    double peak = 0;
    double cpu = 0;
    for (const ToolRun& run : runs) {
        peak = std::max(peak, run.peak_rss_mib);
        cpu += run.cpu_seconds;
    }
    state.counters["peak_RSS_MiB"] = peak;
    state.counters["cpu_s"] = runs.empty() ? 0 : cpu / static_cast<double>(runs.size());
    state.counters["runs"] = static_cast<double>(build().runs());
    state.counters["events"] = static_cast<double>(build().events());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(build().events()));
}

// Every run of the build into one file.
void BM_Merge(benchmark::State& state) {
    const Build& runs = build();
    std::vector<ToolRun> done;
    for (auto _ : state) {
        const ToolRun run = run_tool({"merge", runs.runs_dir(), "-o", runs.merged(), "-q"});
        if (run.status != 0) {
            state.SkipWithError("qprof merge failed");
            return;
        }
        state.SetIterationTime(run.seconds);
        done.push_back(run);
    }
    std::error_code error;
    state.counters["merged_MB"] = static_cast<double>(fs::file_size(runs.merged(), error)) / 1e6;
    report(state, done);
}
BENCHMARK(BM_Merge)->UseManualTime()->Unit(benchmark::kMillisecond);

// The merged file's summary: every event of every run read back.
void BM_SummarizeMerged(benchmark::State& state) {
    const Build& runs = build();
    std::error_code error;
    if (!fs::exists(runs.merged(), error) &&
        run_tool({"merge", runs.runs_dir(), "-o", runs.merged(), "-q"}).status != 0) {
        state.SkipWithError("qprof merge failed");
        return;
    }
    std::vector<ToolRun> done;
    for (auto _ : state) {
        const ToolRun run = run_tool({"summarize", runs.merged(), "-q"});
        if (run.status != 0) {
            state.SkipWithError("qprof summarize failed");
            return;
        }
        state.SetIterationTime(run.seconds);
        done.push_back(run);
    }
    report(state, done);
}
BENCHMARK(BM_SummarizeMerged)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
