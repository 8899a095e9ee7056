// The top of profile_queries.html: the run in numbers, then where the time went -- the passes
// and the providers with the most self time, each with its time and one share, whose
// denominator is stated once -- and what was only waiting.
#include <algorithm>

#include "format.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "html_stats.hpp"

namespace qprof::detail::html {

namespace {

constexpr std::size_t kHotRows = 5;

struct QueryCounts {
    std::uint64_t queries = 0;  // activities are not queries
    std::uint64_t hits = 0;
    std::uint64_t pass_runs = 0;  // runs of activities: with the queries, the events recorded
};

QueryCounts query_counts(const Trace& trace) {
    QueryCounts totals;
    for (const ProviderTotals& provider : trace.providers) {
        if (provider.is_activity) {
            totals.pass_runs += provider.count;
        } else {
            totals.queries += provider.count;
            totals.hits += provider.hits;
        }
    }
    return totals;
}

// The providers for which `time_of(index)` is positive, most first, at most kHotRows of them.
template <typename TimeOf>
std::vector<std::uint32_t> top_providers(const Trace& trace, TimeOf time_of) {
    std::vector<std::uint32_t> top;
    for (std::uint32_t i = 0; i < trace.providers.size(); ++i) {
        if (time_of(i) > 0) {
            top.push_back(i);
        }
    }
    std::stable_sort(top.begin(), top.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return time_of(a) > time_of(b); });
    top.resize(std::min(top.size(), kHotRows));
    return top;
}

// One list of the "where the time went" panel: name (a link to its statistics), time, share
// and a bar of that share. Waits are not work, so they have no share of the busy time: they
// say "waiting", their bars show them against the longest one.
template <typename TimeOf>
void write_hot_list(std::ostream& out, std::string_view id, std::string_view title,
                    const Trace& trace, std::int64_t total_ns, bool waits, TimeOf time_of) {
    const std::vector<std::uint32_t> top = top_providers(trace, time_of);
    if (top.empty()) {
        return;
    }
    out << "<div class=\"hot\" id=\"" << id << "\"><h2>" << title << "</h2><ol>";
    const std::int64_t whole = waits ? time_of(top.front()) : total_ns;
    for (const std::uint32_t i : top) {
        const std::int64_t ns = time_of(i);
        const double share =
            whole > 0 ? std::min(100.0, 100.0 * static_cast<double>(ns) / whole) : 0.0;
        out << "<li><a href=\"#\" data-provider=\"" << i << "\">"
            << html_escape(trace.providers[i].provider) << "</a> <span class=\"time\">"
            << ms_text(ns, 1) << " ms</span> <span class=\"share\">"
            << html_escape(waits ? "waiting" : share_text(ns, total_ns))
            << "</span><span class=\"bar\" style=\"width:" << decimal_text(share, 1)
            << "%\"></span></li>";
    }
    out << "</ol></div>\n";
}

}  // namespace

void write_run_header(std::ostream& out, const Trace& trace,
                      const std::vector<ProviderStats>& stats, std::int64_t total_ns) {
    const QueryCounts totals = query_counts(trace);
    out << "<header id=\"summary\">\n<h1>Query profile</h1>\n<dl>\n";
    if (!trace.program.empty()) {
        out << "<div><dt>Program</dt><dd id=\"program\">" << html_escape(trace.program)
            << (trace.pid != 0 ? " (pid " + std::to_string(trace.pid) + ")" : std::string{})
            << "</dd></div>\n";
    }
    out << "<div><dt>Wall time</dt><dd id=\"total-wall\">" << duration_text(trace.wall_ns)
        << "</dd></div>\n<div><dt>Queries</dt><dd id=\"total-queries\">"
        << with_thousands(totals.queries) << "</dd></div>\n<div><dt>Hits</dt><dd id=\"total-hits\">"
        << (trace.selection.hits
                ? with_thousands(totals.hits) + " (" + rate_text(totals.hits, totals.queries) + ")"
                : std::string{layout::kHitsNotRecorded})
        << "</dd></div>\n";
    if (totals.pass_runs > 0) {  // so that queries and pass runs add up to the events recorded
        out << "<div><dt>Pass runs</dt><dd id=\"total-pass-runs\">"
            << with_thousands(totals.pass_runs) << "</dd></div>\n";
    }
    out << "<div><dt>Threads</dt><dd id=\"total-threads\">" << trace.threads.size()
        << "</dd></div>\n<div><dt>Clock</dt><dd>" << html_escape(trace.clock)
        << (trace.keys_recorded ? ", keys recorded" : "") << "</dd></div>\n";
    if (const std::string left_out = trace.selection.left_out(trace.keys_recorded);
        !left_out.empty()) {
        out << "<div><dt>Not recorded</dt><dd id=\"not-recorded\">" << html_escape(left_out)
            << "</dd></div>\n";
    }
    out << "</dl>\n";
    out << "<section id=\"where-time-went\" aria-label=\"Where the time went\">\n"
        << "<p id=\"time-basis\">Where the time went. Every share on this page is of <strong>"
        << duration_text(total_ns) << "</strong> busy time on " << trace.threads.size()
        << (trace.threads.size() == 1 ? " thread" : " threads")
        << " (the threads' time added up, waits left out, as in the flame graph and qprof "
           "summarize): waits are not work.</p>\n";
    // A pass's time less the waits inside it: code generation that only joins its workers
    // did little work itself.
    const std::vector<ProviderTotals>& providers = trace.providers;
    write_hot_list(out, "hot-passes", "Passes", trace, total_ns, false, [&](std::uint32_t i) {
        return providers[i].is_activity ? stats[i].work_ns : std::int64_t{0};
    });
    write_hot_list(out, "hot-providers", "Most self time", trace, total_ns, false,
                   [&](std::uint32_t i) {
                       return providers[i].is_activity ? std::int64_t{0} : stats[i].self_ns;
                   });
    write_hot_list(out, "hot-waits", "Waiting (not work)", trace, total_ns, true,
                   [&](std::uint32_t i) { return stats[i].wait_ns; });
    out << "</section>\n</header>\n";
}

}  // namespace qprof::detail::html
