#include "argument_summary.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "html_parts.hpp"
#include "json_text.hpp"
#include "summary.hpp"
#include "text.hpp"
#include "text_escape.hpp"

namespace qprof::cli {

std::vector<ArgumentRow> argument_rows(const Trace& trace) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, ArgumentRow> by_argument;
    for (const ThreadTrace& thread : trace.threads) {
        if (thread.keys.empty()) {
            continue;  // no key and no argument on this thread
        }
        for (std::uint32_t n = 0; n < thread.nodes.size(); ++n) {
            const Node& node = thread.nodes[n];
            const std::uint32_t key = thread.keys[n];
            if (node.outcome != Outcome::activity || key == 0) {
                continue;
            }
            const std::uint32_t activity = trace.sites[node.site].provider_index;
            ArgumentRow& row = by_argument[{activity, key}];
            row.activity = activity;
            row.argument = trace.key_texts[key - 1];
            row.runs += 1;
            row.total_ns += node.duration_ns();
            row.cpu_ns += std::max<std::int64_t>(0, thread.cpu_ns(n));
        }
    }
    std::vector<ArgumentRow> rows;
    rows.reserve(by_argument.size());
    for (auto& [id, row] : by_argument) {
        rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const ArgumentRow& a, const ArgumentRow& b) {
        return a.activity != b.activity ? a.activity < b.activity : a.total_ns > b.total_ns;
    });
    return rows;
}

void write_arguments_text(const Trace& trace, const std::vector<ArgumentRow>& rows,
                          std::ostream& out) {
    if (rows.empty()) {
        return;
    }
    using Align = TextTable::Align;
    TextTable table{{{"activity", Align::left},
                     {"argument", Align::left},
                     {"runs"},
                     {"total ms"},
                     {"cpu ms"},
                     {"share"}}};
    for (const ArgumentRow& row : rows) {
        const ProviderTotals& activity = trace.providers[row.activity];
        const std::string share = activity.total_ns > 0
                                      ? detail::html::percent_text(row.total_ns, activity.total_ns)
                                      : "\u2014";
        table.add_row({detail::text_field(activity.provider), detail::text_field(row.argument),
                       detail::with_thousands(row.runs), ms_text(row.total_ns), ms_text(row.cpu_ns),
                       share});
    }
    table.write(out);
    out << '\n';
}

void append_arguments_json(const Trace& trace, const std::vector<ArgumentRow>& rows,
                           std::string& json) {
    json += ",\"arguments\":[";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const ArgumentRow& row = rows[i];
        json += i > 0 ? ",\n" : "\n";
        json += "{\"activity\":" + detail::json_string(trace.providers[row.activity].provider) +
                ",\"argument\":" + detail::json_string(row.argument) +
                ",\"runs\":" + std::to_string(row.runs) +
                ",\"total_ns\":" + std::to_string(row.total_ns) +
                ",\"cpu_ns\":" + std::to_string(row.cpu_ns) + "}";
    }
    json += "]";
}

}  // namespace qprof::cli
