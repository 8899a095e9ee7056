#include "budget_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace qprof::bench {

namespace {

constexpr char kTime[] = "time";
constexpr char kCpu[] = "cpu";

std::string key(const std::string& benchmark, const std::string& figure) {
    return benchmark + '\n' + figure;
}

double real_ns_per_iteration(const benchmark::BenchmarkReporter::Run& run) {
    return run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e9;
}

double cpu_ns_per_iteration(const benchmark::BenchmarkReporter::Run& run) {
    return run.GetAdjustedCPUTime() / benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e9;
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string span(double low, double high) {
    char text[64];
    std::snprintf(text, sizeof text, "[%.2f .. %.2f]", low, high);
    return text;
}

// "[19.31 .. 19.90]" over the repetitions; nothing for a single run.
std::string range(const Measure& m, double scale = 1.0) {
    if (m.runs <= 1) {
        return "";
    }
    return span(m.min / scale, m.max / scale);
}

}  // namespace

benchmark::internal::Benchmark* with_spread(benchmark::internal::Benchmark* benchmark) {
    return benchmark
        ->ComputeStatistics(
            "min", [](const std::vector<double>& v) { return *std::ranges::min_element(v); })
        ->ComputeStatistics(
            "max", [](const std::vector<double>& v) { return *std::ranges::max_element(v); });
}

RecordingReporter::RecordingReporter()
    : ConsoleReporter(isatty(STDOUT_FILENO) != 0 ? OO_Color : OO_None) {}

void RecordingReporter::ReportRuns(const std::vector<Run>& runs) {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
        if (run.error_occurred || run.report_big_o || run.report_rms ||
            run.aggregate_unit != benchmark::kTime) {
            continue;  // errors, complexity fits and the coefficient of variation (a percentage)
        }
        repetitions_ = std::max(repetitions_, run.repetitions);
        const std::string& name = run.run_name.function_name;
        auto record = [&](const std::string& figure, double value) {
            Series& series = series_[key(name, figure)];
            series.repetitions = run.repetitions;
            if (run.run_type == Run::RT_Aggregate) {
                series.by_stat[run.aggregate_name] = value;
            } else {
                series.runs.push_back(value);
            }
        };
        record(kTime, real_ns_per_iteration(run));
        record(kCpu, cpu_ns_per_iteration(run));
        for (const auto& [counter, value] : run.counters) {
            record("counter:" + counter, value.value);
        }
    }
}

std::optional<Measure> RecordingReporter::measure(const Series& series) {
    Measure m;
    if (auto median = series.by_stat.find("median"); median != series.by_stat.end()) {
        m.median = median->second;
        m.min = series.by_stat.contains("min") ? series.by_stat.at("min") : m.median;
        m.max = series.by_stat.contains("max") ? series.by_stat.at("max") : m.median;
        m.runs = series.repetitions;
        return m;
    }
    if (series.runs.empty()) {
        return std::nullopt;
    }
    std::vector<double> sorted = series.runs;
    std::ranges::sort(sorted);
    const std::size_t n = sorted.size();
    m.median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    m.min = sorted.front();
    m.max = sorted.back();
    m.runs = static_cast<std::int64_t>(n);
    return m;
}

std::optional<Measure> RecordingReporter::time_ns(const std::string& benchmark) const {
    auto found = series_.find(key(benchmark, kTime));
    return found == series_.end() ? std::nullopt : measure(found->second);
}

std::optional<Measure> RecordingReporter::cpu_ns(const std::string& benchmark) const {
    auto found = series_.find(key(benchmark, kCpu));
    return found == series_.end() ? std::nullopt : measure(found->second);
}

std::optional<Measure> RecordingReporter::counter(const std::string& benchmark,
                                                  const std::string& name) const {
    auto found = series_.find(key(benchmark, "counter:" + name));
    return found == series_.end() ? std::nullopt : measure(found->second);
}

std::string RecordingReporter::repetitions_note() const {
    return repetitions_ > 1 ? "median of " + std::to_string(repetitions_) +
                                  " repetitions, [min .. max] over them; for a ratio, the "
                                  "extreme pairings"
                            : "single run (use --benchmark_repetitions=N for a median)";
}

BudgetTable::BudgetTable(std::ostream& out, std::string_view title) : out_(out) {
    out_ << '\n' << title << '\n';
}

void BudgetTable::line(std::string_view label, double value, std::string_view unit,
                       std::string_view op, double budget, bool ok, std::string_view spread) {
    char text[256];
    const std::string budget_text = op.empty()
                                        ? ""
                                        : "(budget " + std::string(op) + format(" %.2f", budget) +
                                              ' ' + std::string(unit) + ")";
    const char* verdict = op.empty() ? "" : ok ? "OK" : "OVER BUDGET";
    std::snprintf(text, sizeof text, "  %-28.*s = %8.2f %-4.*s %-24s %-12s %.*s\n",
                  static_cast<int>(label.size()), label.data(), value,
                  static_cast<int>(unit.size()), unit.data(), budget_text.c_str(), verdict,
                  static_cast<int>(spread.size()), spread.data());
    out_ << text;
    if (!op.empty()) {
        ++checked_;
        over_budget_ += ok ? 0 : 1;
    }
}

std::string BudgetTable::summary() const {
    if (checked_ == 0) {
        return "no budgeted figure was run";
    }
    if (over_budget_ == 0) {
        return "all " + std::to_string(checked_) + " within budget";
    }
    return std::to_string(over_budget_) + " of " + std::to_string(checked_) + " OVER BUDGET";
}

void BudgetTable::reference(std::string_view label, std::optional<Measure> value,
                            std::string_view unit, double scale) {
    if (!value) {
        out_ << "  " << label << ": not run\n";
        return;
    }
    line(label, value->median / scale, unit, "", 0, true, range(*value, scale));
}

void BudgetTable::at_most(std::string_view label, std::optional<Measure> value, double budget,
                          std::string_view unit) {
    if (!value) {
        out_ << "  " << label << ": not run\n";
        return;
    }
    line(label, value->median, unit, "<=", budget, value->median <= budget, range(*value));
}

void BudgetTable::at_least(std::string_view label, std::optional<Measure> value, double budget,
                           std::string_view unit, double scale) {
    if (!value) {
        out_ << "  " << label << ": not run\n";
        return;
    }
    const double median = value->median / scale;
    line(label, median, unit, ">=", budget, median >= budget, range(*value, scale));
}

void BudgetTable::ratio_at_most(std::string_view label, std::optional<Measure> numerator,
                                std::optional<Measure> denominator, double budget) {
    if (!numerator || !denominator || denominator->median <= 0) {
        out_ << "  " << label << ": not run\n";
        return;
    }
    const double ratio = numerator->median / denominator->median;
    std::string spread;
    if (numerator->runs > 1) {
        // The extreme pairings of the two ranges bound the ratio of any two repetitions.
        spread = span(numerator->min / denominator->max, numerator->max / denominator->min);
    }
    line(label, ratio, "x", "<=", budget, ratio <= budget, spread);
}

bool run_benchmarks(int argc, char** argv, RecordingReporter& reporter) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return false;
    }
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return true;
}

}  // namespace qprof::bench
