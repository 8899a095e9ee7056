// profile_queries.counts.txt: `provider,count,duration` per provider, no header; duration is
// the inclusive time in seconds with 3 decimals; rows by duration, longest first. The name is
// a text_field (text_escape.hpp) with ',' as `\,`, so every row is one line of three fields.
// A run that left events out (-Z profile-queries-events) starts with `# not recorded: ...`.
#include <algorithm>
#include <cstdio>

#include "builtin_reporters.hpp"
#include "text_escape.hpp"

namespace qprof::detail {

namespace {

class CountsReporter : public Reporter {
  public:
    std::string_view name() const override { return "counts"; }
    std::string_view description() const override {
        return "provider,count,duration per provider (count includes hits; seconds, inclusive)";
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
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%.3f",
                          static_cast<double>(row->total_ns) / 1e9);
            out << text_field(row->provider, ',') << ',' << row->count << ',' << seconds << '\n';
        }
    }
};

}  // namespace

std::unique_ptr<Reporter> make_counts_reporter() { return std::make_unique<CountsReporter>(); }

}  // namespace qprof::detail
