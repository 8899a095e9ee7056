// profile_queries.counts.txt: `provider,count,duration` per provider, no header; duration is
// the inclusive time in seconds with 3 decimals; rows by duration, longest first. An activity's
// row has a fourth field, its thread CPU time in seconds: a pass that waits shows duration well
// above it. The name is a text_field (format.hpp) with ',' as `\,`, so every row is one
// line of three fields (four for an activity). Under an activity with arguments
// (PROFILE_ACTIVITY_ARG), a row per argument, `activity(argument),runs,duration,cpu`, longest
// first (Trace::arguments). A run that left events out (-Z profile-queries-events) starts with
// `# not recorded: ...`.
#include <algorithm>

#include "builtin_reporters.hpp"
#include "format.hpp"

namespace qprof::detail {

namespace {

class CountsReporter : public Reporter {
  public:
    std::string_view name() const override { return "counts"; }
    std::string_view description() const override {
        return "provider,count,duration per provider (count includes hits; seconds, inclusive; "
               "an activity adds its CPU time)";
    }
    std::string_view file_suffix() const override { return "counts.txt"; }
    bool needs_nodes() const override { return false; }

    void write(const Trace& trace, std::ostream& out) override {
        if (const std::string left_out = trace.selection.left_out(trace.keys_recorded);
            !left_out.empty()) {
            out << "# not recorded: " << text_field(left_out) << '\n';
        }
        std::vector<const ProviderTotals*> rows;
        for (const ProviderTotals& provider : trace.providers) {
            rows.push_back(&provider);
        }
        std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
            if (a->total_ns != b->total_ns) {
                return a->total_ns > b->total_ns;
            }
            if (a->count != b->count) {
                return a->count > b->count;
            }
            return a->provider < b->provider;
        });
        for (const ProviderTotals* row : rows) {
            out << text_field(row->provider, ',') << ',' << row->count << ','
                << seconds_text(row->total_ns);
            if (row->is_activity && !row->is_region) {
                out << ',' << seconds_text(row->cpu_ns);
            }
            out << '\n';
            write_arguments(trace, static_cast<std::uint32_t>(row - trace.providers.data()), out);
        }
    }

  private:
    // An activity's rows per argument, right under its own, in Trace::arguments' order.
    static void write_arguments(const Trace& trace, std::uint32_t activity, std::ostream& out) {
        const auto first = std::lower_bound(
            trace.arguments.begin(), trace.arguments.end(), activity,
            [](const ArgumentTotals& row, std::uint32_t index) { return row.activity < index; });
        for (auto row = first; row != trace.arguments.end() && row->activity == activity; ++row) {
            out << text_field(trace.name_of(*row), ',') << ',' << row->runs << ','
                << seconds_text(row->total_ns) << ',' << seconds_text(row->cpu_ns) << '\n';
        }
    }
};

}  // namespace

std::unique_ptr<Reporter> make_counts_reporter() { return std::make_unique<CountsReporter>(); }

}  // namespace qprof::detail
