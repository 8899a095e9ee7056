// The per-provider statistics as the page's JSON (html_stats.hpp): apart from their gathering,
// which is most of html_stats.cpp.
#include <ostream>
#include <utility>

#include "html_payload_layout.hpp"
#include "html_stats.hpp"

namespace qprof::detail::html {

namespace {

// ,"alloc_bytes":N,"allocs":N,"retained_bytes":N and the same prefixed "self_".
void write_memory(std::ostream& out, const ProviderStats& s) {
    for (const auto& [prefix, use] :
         {std::pair{"", &s.memory_total}, std::pair{"self_", &s.memory_self}}) {
        out << ",\"" << prefix << "alloc_bytes\":" << use->allocated_bytes << ",\"" << prefix
            << "allocs\":" << use->allocations << ",\"" << prefix
            << "retained_bytes\":" << use->retained_bytes;
    }
}

void write_run(std::ostream& out, const RunRef& run) {
    out << '[' << run.thread << ',' << run.n << ',' << run.ns << ',' << run.key << ']';
}

void write_edges(std::ostream& out, std::string_view name, const std::vector<CallEdge>& edges) {
    out << ",\"" << name << "\":[";
    for (std::size_t i = 0; i < edges.size(); ++i) {
        out << (i > 0 ? "," : "") << '[';
        if (edges[i].provider == kTopLevel) {
            out << layout::kTopLevelCaller;
        } else {
            out << edges[i].provider;
        }
        out << ',' << edges[i].calls << ',' << edges[i].ns << ']';
    }
    out << ']';
}

}  // namespace

void write_stats(std::ostream& out, const std::vector<ProviderStats>& stats) {
    out << '[';
    for (const ProviderStats& s : stats) {
        out << (s.provider > 0 ? ",\n" : "") << "{\"provider\":" << s.provider
            << ",\"runs\":" << s.runs << ",\"hits\":" << s.hits << ",\"waits\":" << s.waits
            << ",\"total_ns\":" << s.total_ns << ",\"self_ns\":" << s.self_ns
            << ",\"wait_ns\":" << s.wait_ns << ",\"work_ns\":" << s.work_ns
            << ",\"mean_ns\":" << s.mean_ns << ",\"median_ns\":" << s.median_ns
            << ",\"max_ns\":" << s.max_ns;
        if (s.cpu_ns >= 0) {
            out << ",\"cpu_ns\":" << s.cpu_ns;
        }
        if (s.memory) {
            write_memory(out, s);
        }
        out << ",\"histogram\":[";
        for (std::size_t b = 0; b < s.histogram.size(); ++b) {
            out << (b > 0 ? "," : "") << s.histogram[b];
        }
        out << "],\"slowest\":[";
        for (std::size_t i = 0; i < s.slowest.size(); ++i) {
            out << (i > 0 ? "," : "");
            write_run(out, s.slowest[i]);
        }
        out << "],\"keys\":[";
        for (std::size_t i = 0; i < s.keys.size(); ++i) {
            out << (i > 0 ? "," : "") << '[' << s.keys[i].key << ',' << s.keys[i].asked << ','
                << s.keys[i].hits << ',' << s.keys[i].ns << ']';
        }
        out << ']';
        write_edges(out, "callers", s.callers);
        write_edges(out, "callees", s.callees);
        out << '}';
    }
    out << ']';
}

}  // namespace qprof::detail::html
