// profile_queries.keys.txt: for each provider, the keys that cost the most. One tab-separated
// line per (provider, key) -- keys contain commas -- among the 10 costliest keys of each
// provider; providers by total time, keys by total time. Needs -Z profile-queries-and-keys,
// but for activities' arguments (PROFILE_ACTIVITY_ARG), which are always recorded.
// Providers and keys are text_fields (format.hpp): a tab, line feed or carriage return
// is written as \t, \n or \r, a backslash as \\, so that every line keeps its six fields.
#include <algorithm>
#include <string>
#include <unordered_map>

#include "builtin_reporters.hpp"
#include "format.hpp"

namespace qprof::detail {

namespace {

constexpr std::size_t kKeysPerProvider = 10;

struct KeyCost {
    std::uint32_t provider = 0;
    std::uint32_t key = 0;  // index + 1 into Trace::key_texts
    std::uint64_t count = 0;
    std::uint64_t hits = 0;
    std::int64_t total_ns = 0;
    std::int64_t self_ns = 0;
};

// By provider index (high half) and key (low half).
using KeyCosts = std::unordered_map<std::uint64_t, KeyCost>;

void add_thread(const Trace& trace, const ThreadTrace& thread, KeyCosts& costs) {
    const std::vector<std::uint32_t> parents = thread.parents();
    std::vector<std::int64_t> child_time(thread.nodes.size(), 0);
    for (auto it = thread.nodes.begin(); it != thread.nodes.end(); ++it) {  // children first
        const std::uint32_t i = it.index();
        const Node node = *it;
        const std::int64_t duration = node.outcome == Outcome::hit ? 0 : node.duration_ns();
        if (parents[i] < thread.nodes.size()) {
            child_time[parents[i]] += duration;
        }
        if (thread.keys.empty() || thread.keys[i] == 0) {
            continue;
        }
        const std::uint32_t provider = trace.sites[node.site].provider_index;
        KeyCost& cost = costs[std::uint64_t{provider} << 32 | thread.keys[i]];
        cost.provider = provider;
        cost.key = thread.keys[i];
        ++cost.count;
        cost.hits += node.outcome == Outcome::hit;
        cost.total_ns += duration;
        cost.self_ns += duration - child_time[i];
    }
}

class KeysReporter : public Reporter {
  public:
    std::string_view name() const override { return "keys"; }
    std::string_view description() const override {
        return "the 10 costliest keys of each provider (with -Z profile-queries-and-keys)";
    }
    std::string_view file_suffix() const override { return "keys.txt"; }

    void write(const Trace& trace, std::ostream& out) override {
        out << "# provider\tkey\tcount\thits\ttotal_s\tself_s\n";
        if (!trace.keys_recorded) {
            // Activities' arguments are recorded anyway, and listed as their keys.
            out << "# no keys: run with -Z profile-queries-and-keys to record them\n";
        }
        if (const std::string left_out = trace.selection.left_out(trace.keys_recorded);
            !left_out.empty()) {
            out << "# not recorded: " << text_field(left_out) << '\n';
        }
        KeyCosts costs;
        for (const ThreadTrace& thread : trace.threads) {
            add_thread(trace, thread, costs);
        }
        std::vector<KeyCost> rows;
        for (const auto& [id, cost] : costs) {
            rows.push_back(cost);
        }
        std::sort(rows.begin(), rows.end(), [&](const KeyCost& a, const KeyCost& b) {
            const ProviderTotals& pa = trace.providers[a.provider];
            const ProviderTotals& pb = trace.providers[b.provider];
            if (a.provider != b.provider) {
                return pa.total_ns != pb.total_ns ? pa.total_ns > pb.total_ns
                                                  : pa.provider < pb.provider;
            }
            return a.total_ns != b.total_ns
                       ? a.total_ns > b.total_ns
                       : trace.key_texts[a.key - 1] < trace.key_texts[b.key - 1];
        });
        std::size_t shown = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            shown = i > 0 && rows[i].provider == rows[i - 1].provider ? shown + 1 : 0;
            if (shown < kKeysPerProvider) {
                const KeyCost& row = rows[i];
                out << text_field(trace.providers[row.provider].provider) << '\t'
                    << text_field(trace.key_texts[row.key - 1]) << '\t' << row.count << '\t'
                    << row.hits << '\t' << seconds_text(row.total_ns, 6) << '\t'
                    << seconds_text(row.self_ns, 6) << '\n';
            }
        }
    }
};

}  // namespace

std::unique_ptr<Reporter> make_keys_reporter() { return std::make_unique<KeysReporter>(); }

}  // namespace qprof::detail
