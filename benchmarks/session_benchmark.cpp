// What a session costs a process apart from its events: the fixed cost of one that records
// nothing (start, clock calibration, collector start and stop, no report), and the end of a
// run per event (completing the trace and writing the default reports). Build tools and
// compilers run many short processes, where exactly these costs add up.
//
//   $ ./session_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Budgets: a session that records nothing <= 1 ms of wall time; the end of a run <= 40 ns per
// event. The session prints its one line on stderr, which is sent to /dev/null meanwhile.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <qprof/qprof.hpp>
#include <string>
#include <thread>

namespace {

// Sends stderr to /dev/null while it lives.
class QuietStderr {
  public:
    QuietStderr() : saved_(::dup(STDERR_FILENO)) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDERR_FILENO);
        ::close(null);
    }
    ~QuietStderr() {
        ::dup2(saved_, STDERR_FILENO);
        ::close(saved_);
    }
    QuietStderr(const QuietStderr&) = delete;
    QuietStderr& operator=(const QuietStderr&) = delete;

  private:
    int saved_;
};

std::string report_dir() {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("qprof-session-benchmark-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir.string();
}

qprof::SessionOptions recording(std::vector<std::string> reporters) {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.reporters = std::move(reporters);
    options.output_dir = report_dir();
    return options;
}

// A session that records nothing and writes no report: its whole life.
void BM_SessionRecordingNothing(benchmark::State& state) {
    const qprof::SessionOptions options = recording({});
    QuietStderr quiet;
    for (auto _ : state) {
        qprof::Session session{options};
        session.finish();
    }
}
BENCHMARK(BM_SessionRecordingNothing)->UseRealTime()->Unit(benchmark::kMicrosecond);

// Shallow and hit-heavy: three hits for each provider run, as in a dependency scan.
void record_events(int runs) {
    for (int i = 0; i < runs; ++i) {
        PROFILE_QUERY(dirty, i);
        PROFILE_QUERY_HIT(dirty, i - 1);
        PROFILE_QUERY_HIT(mtime, i);
        PROFILE_QUERY_HIT(dirty, i - 2);
    }
}

// The end of a run with the default reports (counts, html), per event: finish() alone is
// timed, the recording is not. The loop records an event every few ns, faster than the
// collector reads them, so finish() first reads most of the records itself. With `settled`,
// the benchmark waits (untimed) for the collector to read the full chunks first, as it does
// while a program whose events take some time runs: finish() is then the trace's completion
// and the reports, which is what the budget counts.
void end_of_run(benchmark::State& state, bool settled) {
    const int runs = static_cast<int>(state.range(0));
    const qprof::SessionOptions options = recording({"counts", "html"});
    QuietStderr quiet;
    for (auto _ : state) {
        state.PauseTiming();
        qprof::Session session{options};
        record_events(runs);
        if (settled) {
            std::this_thread::sleep_for(
                std::chrono::milliseconds{50});  // the collector wakes every 5
        }
        state.ResumeTiming();
        session.finish();
    }
    state.counters["time_per_event"] =
        benchmark::Counter(static_cast<double>(runs) * 4 * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_EndOfRunDefaultReports(benchmark::State& state) { end_of_run(state, false); }
BENCHMARK(BM_EndOfRunDefaultReports)->Arg(75'000)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_EndOfRunDefaultReportsSettled(benchmark::State& state) { end_of_run(state, true); }
BENCHMARK(BM_EndOfRunDefaultReportsSettled)
    ->Arg(75'000)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::error_code ignored;
    std::filesystem::remove_all(report_dir(), ignored);
    return 0;
}
