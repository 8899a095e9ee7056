// profile_queries.html's sizes and counters: a table of each (qprof::record_size summed per
// name, qprof::counter's samples and range), and each thread's counter values in the payload,
// which the timeline draws as a small graph per counter under the thread's track
// (reporters/html/timeline_draw.js). docs/html-report.md, "Sizes and counters".
#include <algorithm>

#include "format.hpp"
#include "html_parts.hpp"

namespace qprof::detail::html {

namespace {

// A series longer than this is drawn from its envelope: per time bucket, its lowest and its
// highest value, so that a counter recorded at every event keeps the page light.
constexpr std::size_t kMaxDrawnSamples = 4'000;

// The samples the page draws: all of them, or the lowest and highest of each of
// kMaxDrawnSamples / 2 time buckets, in time order.
std::vector<CounterSample> drawn_samples(const std::vector<CounterSample>& samples) {
    if (samples.size() <= kMaxDrawnSamples) {
        return samples;
    }
    constexpr std::size_t kBuckets = kMaxDrawnSamples / 2;
    const double first = static_cast<double>(samples.front().time_ns);
    const double span = std::max(1.0, static_cast<double>(samples.back().time_ns) - first);
    std::vector<CounterSample> drawn;
    std::size_t begin = 0;
    while (begin < samples.size()) {
        const auto bucket = static_cast<std::size_t>(
            (static_cast<double>(samples[begin].time_ns) - first) / span * (kBuckets - 1));
        std::size_t end = begin;
        std::size_t low = begin;
        std::size_t high = begin;
        while (end < samples.size() &&
               static_cast<std::size_t>((static_cast<double>(samples[end].time_ns) - first) / span *
                                        (kBuckets - 1)) == bucket) {
            low = samples[end].value < samples[low].value ? end : low;
            high = samples[end].value > samples[high].value ? end : high;
            ++end;
        }
        drawn.push_back(samples[std::min(low, high)]);
        if (low != high) {
            drawn.push_back(samples[std::max(low, high)]);
        }
        begin = end;
    }
    return drawn;
}

}  // namespace

void write_measure_tables(std::ostream& out, const Trace& trace) {
    if (trace.sizes.empty() && trace.counters.empty()) {
        return;
    }
    out << "<section id=\"measures\">\n<h2>Sizes and counters</h2>\n";
    if (!trace.sizes.empty()) {
        out << "<table id=\"size-table\">\n<thead><tr><th>Size</th><th>Total bytes</th>"
               "<th>Records</th><th>Mean bytes</th></tr></thead>\n<tbody>\n";
        for (const SizeTotals* size : sizes_by_bytes(trace)) {
            out << "<tr><td>" << html_escape(size->name) << "</td><td class=\"num\">"
                << with_thousands(size->bytes) << "</td><td class=\"num\">"
                << with_thousands(size->records) << "</td><td class=\"num\">"
                << with_thousands(size->bytes / std::max<std::uint64_t>(size->records, 1))
                << "</td></tr>\n";
        }
        out << "</tbody>\n</table>\n";
    }
    if (!trace.counters.empty()) {
        out << "<p class=\"hint\">Each thread's values of a counter are drawn under its track on "
               "the timeline.</p>\n<table id=\"counter-table\">\n<thead><tr><th>Counter</th>"
               "<th>Samples</th><th>Min</th><th>Max</th></tr></thead>\n<tbody>\n";
        for (const CounterTotals& counter : trace.counters) {
            out << "<tr><td>" << html_escape(counter.name) << "</td><td class=\"num\">"
                << with_thousands(counter.samples) << "</td><td class=\"num\">"
                << signed_with_thousands(counter.min) << "</td><td class=\"num\">"
                << signed_with_thousands(counter.max) << "</td></tr>\n";
        }
        out << "</tbody>\n</table>\n";
    }
    out << "</section>\n";
}

std::vector<const SizeTotals*> sizes_by_bytes(const Trace& trace) {
    std::vector<const SizeTotals*> sizes;
    for (const SizeTotals& size : trace.sizes) {
        sizes.push_back(&size);
    }
    std::sort(sizes.begin(), sizes.end(), [](const auto* a, const auto* b) {
        return a->bytes != b->bytes ? a->bytes > b->bytes : a->name < b->name;
    });
    return sizes;
}

void write_counter_names(std::ostream& out, const Trace& trace) {
    if (trace.counters.empty()) {
        return;
    }
    out << ",\n\"counters\":[";
    for (std::size_t i = 0; i < trace.counters.size(); ++i) {
        out << (i > 0 ? "," : "") << json_string(trace.counters[i].name);
    }
    out << ']';
}

void write_thread_counters(std::ostream& out, const ThreadTrace& thread) {
    if (thread.counters.empty()) {
        return;
    }
    out << ",\"counters\":[";
    for (std::size_t i = 0; i < thread.counters.size(); ++i) {
        const std::vector<CounterSample> samples = drawn_samples(thread.counters[i].samples);
        out << (i > 0 ? "," : "") << "{\"counter\":" << thread.counters[i].counter
            << ",\"samples\":" << thread.counters[i].samples.size() << ",\"time\":[";
        for (std::size_t s = 0; s < samples.size(); ++s) {
            out << (s > 0 ? "," : "") << samples[s].time_ns;
        }
        out << "],\"value\":[";
        for (std::size_t s = 0; s < samples.size(); ++s) {
            out << (s > 0 ? "," : "") << samples[s].value;
        }
        out << "]}";
    }
    out << ']';
}

}  // namespace qprof::detail::html
