// The trace as the viewer reads it: per thread, one column per field in pre-order, varint
// coded, in one zlib stream (compressed, or stored when small: columns_method) and written as
// base64 (html_columns.cpp, html_payload_text.cpp; html_payload_layout.hpp); then the keys' texts
// in the same stream; beside it, JSON with the rest (providers, statistics) and each part's size,
// so that the viewer can check what it decompressed, written here. toyc's ten million nodes
// make 5.7 MB of text.

#include <string>
#include <vector>

#include "format.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "html_stats.hpp"

namespace qprof::detail::html {

namespace {

// ,"cpu":[[n,ns],...]: the thread CPU time of the thread's activities, by pre-order index.
void write_activity_cpu(std::ostream& out, const Preorder& order) {
    const ThreadTrace& thread = order.thread();
    if (thread.activity_cpu.empty()) {
        return;
    }
    out << ",\"cpu\":[";
    const char* separator = "";
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        if (order.node(n).outcome != Outcome::activity) {
            continue;
        }
        if (const std::int64_t ns = thread.cpu_ns(order.post_index(n)); ns >= 0) {
            out << separator << '[' << n << ',' << ns << ']';
            separator = ",";
        }
    }
    out << ']';
}

// A command line to show beside a process: the arguments after the program, cut to about
// kCommandBytes (at a character's start) with an ellipsis.
constexpr std::size_t kCommandBytes = 160;

std::string command_text(const RunInfo& run) {
    std::string text;
    for (std::size_t i = 1; i < run.argv.size() && text.size() <= kCommandBytes; ++i) {
        text += (i > 1 ? " " : "") + run.argv[i];
    }
    if (text.size() > kCommandBytes) {
        std::size_t cut = kCommandBytes;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) {
            --cut;
        }
        text = text.substr(0, cut) + "\u2026";
    }
    return text;
}

// The processes of a merged build, in order of start; threads name theirs by index. A trace
// of one run has none.
void write_processes(std::ostream& out, const Trace& trace) {
    out << ",\n\"processes\":[";
    for (std::size_t i = 0; i < trace.runs.size(); ++i) {
        const RunInfo& run = trace.runs[i];
        out << (i > 0 ? ",\n" : "") << "{\"program\":" << json_string(run.program)
            << ",\"pid\":" << run.pid << ",\"start_ns\":" << run.start_offset_ns
            << ",\"wall_ns\":" << run.wall_ns << ",\"events\":" << run.events
            << ",\"command\":" << json_string(command_text(run)) << '}';
    }
    out << ']';
}

}  // namespace

void write_payload(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders,
                   const Importance& important, const std::vector<ProviderStats>& stats,
                   const PayloadColumns& columns) {
    out << "{\"format\":" << json_string(layout::kFormat) << ",\"version\":" << layout::kVersion
        << ",\"wall_ns\":" << trace.wall_ns << ",\"total_ns\":" << important.total_ns()
        << ",\"clock\":" << json_string(trace.clock)
        << ",\"hits_recorded\":" << (trace.selection.hits ? "true" : "false")
        << (trace.memory_recorded ? ",\"memory_recorded\":true" : "")
        << ",\"important\":{\"extent\":" << important.extent()
        << ",\"percent\":" << important.percent() << "},\n\"providers\":[";
    for (std::size_t i = 0; i < trace.providers.size(); ++i) {
        out << (i > 0 ? "," : "") << "{\"name\":" << json_string(trace.providers[i].provider)
            << ",\"activity\":" << (trace.providers[i].is_activity ? "true" : "false")
            << (trace.providers[i].is_region ? ",\"region\":true" : "");
        if (trace.providers[i].colour_class != 0) {
            out << ",\"class\":" << trace.providers[i].colour_class;
        }
        out << '}';
    }
    out << ']';
    if (!trace.colour_classes.empty()) {  // only then: a page without classes stays as it was
        out << ",\n\"classes\":";
        write_colour_classes(out, trace);
    }
    out << ",\n\"keys\":{\"count\":" << columns.key_count << ",\"" << layout::kKeyLengths
        << "\":" << columns.key_length_bytes << ",\"" << layout::kKeyText
        << "\":" << columns.key_text_bytes;
    if (columns.hits_left_out > 0) {  // only then: a page with every key stays as it was
        out << ",\"" << layout::kHitsLeftOut << "\":" << columns.hits_left_out;
    }
    out << "},\n\"stats\":";
    write_stats(out, stats);
    write_counter_names(out, trace);
    const bool merged = trace.runs.size() > 1;
    if (merged) {
        write_processes(out, trace);
    }
    out << ",\n\"compression\":" << json_string(layout::kCompression) << ",\n\"threads\":[";
    for (std::size_t i = 0; i < orders.size(); ++i) {
        out << (i > 0 ? ",\n" : "") << "{\"name\":" << json_string(orders[i].thread().name)
            << ",\"nodes\":" << orders[i].size();
        if (merged) {
            out << ",\"process\":" << orders[i].thread().run;
        }
        out << ",\"bytes\":{";
        for (std::size_t c = 0; c < columns.threads[i].size(); ++c) {
            out << (c > 0 ? "," : "") << '"' << columns.threads[i][c].first
                << "\":" << columns.threads[i][c].second;
        }
        out << '}';
        write_activity_cpu(out, orders[i]);
        write_thread_counters(out, orders[i].thread());
        out << '}';
    }
    out << "]}";
}

}  // namespace qprof::detail::html
