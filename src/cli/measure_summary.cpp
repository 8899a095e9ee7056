#include "measure_summary.hpp"

#include <algorithm>
#include <vector>

#include "format.hpp"
#include "html_parts.hpp"
#include "summary.hpp"

namespace qprof::cli {

namespace {

std::vector<const CounterTotals*> sorted_counters(const Trace& trace) {
    std::vector<const CounterTotals*> counters;
    for (const CounterTotals& counter : trace.counters) {
        counters.push_back(&counter);
    }
    std::stable_sort(counters.begin(), counters.end(),
                     [](const auto* a, const auto* b) { return a->name < b->name; });
    return counters;
}

}  // namespace

void write_measure_tables(const Trace& trace, bool after_blank_line, std::ostream& out) {
    using Align = detail::TextTable::Align;
    bool blank_line = after_blank_line;
    if (!trace.sizes.empty()) {
        detail::TextTable table{
            {{"size", Align::left}, {"total bytes"}, {"records"}, {"mean bytes"}}};
        for (const SizeTotals* size : detail::html::sizes_by_bytes(trace)) {
            table.add_row(
                {detail::text_field(size->name), detail::with_thousands(size->bytes),
                 detail::with_thousands(size->records),
                 detail::with_thousands(size->bytes / std::max<std::uint64_t>(size->records, 1))});
        }
        out << (blank_line ? "" : "\n");
        table.write(out);
        out << '\n';
        blank_line = true;
    }
    if (!trace.counters.empty()) {
        detail::TextTable table{{{"counter", Align::left}, {"samples"}, {"min"}, {"max"}}};
        for (const CounterTotals* counter : sorted_counters(trace)) {
            table.add_row({detail::text_field(counter->name),
                           detail::with_thousands(counter->samples),
                           detail::signed_with_thousands(counter->min),
                           detail::signed_with_thousands(counter->max)});
        }
        out << (blank_line ? "" : "\n");
        table.write(out);
        out << '\n';
    }
}

std::string measures_json(const Trace& trace) {
    std::string json = "\"sizes\":[";
    bool first = true;
    for (const SizeTotals* size : detail::html::sizes_by_bytes(trace)) {
        json += first ? "" : ",";
        first = false;
        json += "{\"name\":" + detail::json_string(size->name) +
                ",\"bytes\":" + std::to_string(size->bytes) +
                ",\"records\":" + std::to_string(size->records) + "}";
    }
    json += "],\"counters\":[";
    first = true;
    for (const CounterTotals* counter : sorted_counters(trace)) {
        json += first ? "" : ",";
        first = false;
        json += "{\"name\":" + detail::json_string(counter->name) +
                ",\"samples\":" + std::to_string(counter->samples) +
                ",\"min\":" + std::to_string(counter->min) +
                ",\"max\":" + std::to_string(counter->max) + "}";
    }
    return json + "]";
}

}  // namespace qprof::cli
