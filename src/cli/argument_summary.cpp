#include "argument_summary.hpp"

#include "format.hpp"
#include "summary.hpp"

namespace qprof::cli {

void write_arguments_text(const Trace& trace, std::ostream& out) {
    if (trace.arguments.empty()) {
        return;
    }
    using Align = detail::TextTable::Align;
    detail::TextTable table{{{"activity", Align::left},
                             {"argument", Align::left},
                             {"runs"},
                             {"total ms"},
                             {"cpu ms"},
                             {"share"}}};
    for (const ArgumentTotals& row : trace.arguments) {
        const ProviderTotals& activity = trace.providers[row.activity];
        const std::string share =
            activity.total_ns > 0 ? detail::share_text(row.total_ns, activity.total_ns) : "\u2014";
        table.add_row({detail::text_field(activity.provider), detail::text_field(row.argument),
                       detail::with_thousands(row.runs), detail::ms_text(row.total_ns),
                       detail::ms_text(row.cpu_ns), share});
    }
    table.write(out);
    out << '\n';
}

void append_arguments_json(const Trace& trace, std::string& json) {
    json += ",\"arguments\":[";
    for (std::size_t i = 0; i < trace.arguments.size(); ++i) {
        const ArgumentTotals& row = trace.arguments[i];
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
