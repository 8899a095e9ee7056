// Google Benchmark output as usual, then a table of the measured figures against the budgets
// of docs/architecture.md ("Where each budget is measured").
//
//   qprof::bench::RecordingReporter reporter;
//   benchmark::RunSpecifiedBenchmarks(&reporter);
//   qprof::bench::BudgetTable table{std::cout, "hot path, real time"};
//   table.ratio_at_most("scope / floor", reporter.time_ns("scope"), reporter.time_ns("floor"),
//                       1.10);
//
// With --benchmark_repetitions=N the table uses the median over the repetitions and shows their
// range (min .. max); register benchmarks through with_spread() so that the range is kept
// even with --benchmark_report_aggregates_only=true.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::bench {

// One figure over the repetitions of a benchmark.
struct Measure {
    double median = 0;
    double min = 0;
    double max = 0;
    std::int64_t runs = 1;
};

// Adds "min" and "max" to the statistics computed over repetitions.
benchmark::internal::Benchmark* with_spread(benchmark::internal::Benchmark* benchmark);

// The console reporter, which also keeps every run's real time per iteration and counters.
class RecordingReporter : public benchmark::ConsoleReporter {
  public:
    RecordingReporter();

    void ReportRuns(const std::vector<Run>& runs) override;

    // Real time per iteration in nanoseconds; empty if the benchmark did not run.
    std::optional<Measure> time_ns(const std::string& benchmark) const;
    // CPU time of the benchmark thread per iteration: leaves out the time the thread waited
    // for a core, which real time counts on a loaded machine.
    std::optional<Measure> cpu_ns(const std::string& benchmark) const;
    // A user counter as reported (rates already per second); empty if absent.
    std::optional<Measure> counter(const std::string& benchmark, const std::string& name) const;
    // "median of 5 repetitions", or "single run".
    std::string repetitions_note() const;

  private:
    struct Series {
        std::vector<double> runs;               // one value per repetition
        std::map<std::string, double> by_stat;  // aggregates: "median", "min", "max", ...
        std::int64_t repetitions = 1;
    };
    static std::optional<Measure> measure(const Series& series);

    std::map<std::string, Series> series_;  // key: benchmark name, '\n', figure name
    std::int64_t repetitions_ = 1;
};

// Prints one line per budget: the figure, the budget, OK or OVER BUDGET, and the spread.
class BudgetTable {
  public:
    BudgetTable(std::ostream& out, std::string_view title);

    // A figure with no budget, shown for reference.
    void reference(std::string_view label, std::optional<Measure> value, std::string_view unit,
                   double scale = 1.0);
    void at_most(std::string_view label, std::optional<Measure> value, double budget,
                 std::string_view unit);
    void at_least(std::string_view label, std::optional<Measure> value, double budget,
                  std::string_view unit, double scale = 1.0);
    // numerator / denominator, both medians; the spread shown is that of each side.
    void ratio_at_most(std::string_view label, std::optional<Measure> numerator,
                       std::optional<Measure> denominator, double budget);

    int over_budget() const { return over_budget_; }
    // "all 7 within budget", "2 of 7 OVER BUDGET" or "no budgeted figure was run".
    std::string summary() const;

  private:
    void line(std::string_view label, double value, std::string_view unit, std::string_view op,
              double budget, bool ok, std::string_view spread);

    std::ostream& out_;
    int checked_ = 0;
    int over_budget_ = 0;
};

// Runs the registered benchmarks with the usual command line, recording into `reporter`.
// Returns false (after saying why) when the command line has arguments it does not know.
bool run_benchmarks(int argc, char** argv, RecordingReporter& reporter);

}  // namespace qprof::bench
