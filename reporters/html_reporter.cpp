// profile_queries.html: the query trace as nested boxes -- misses as boxes holding their
// sub-queries, hits as dots, important nodes labelled -- with totals, a provider table, the
// widest and deepest nodes, and the whole trace for the viewer to draw on demand. One
// self-contained file; see README, "The HTML report".
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "builtin_reporters.hpp"
#include "format.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "html_payload_text.hpp"
#include "html_stats.hpp"

namespace qprof::detail {

namespace {

using namespace html;

// Elements drawn per thread before the viewer takes over (layout::kInitialElements): enough
// for every important node of a typical run, few enough that the page opens at once.
using layout::kInitialElements;
// The same for all threads together: a merged build of hundreds of processes would write
// millions. The threads the selector lists share it in thread order; the viewer draws the tree
// of a thread left without one when it is first shown (tree.js).
constexpr std::size_t kPageElements = 40'000;

constexpr std::string_view kLegend = R"(<section id="legend">
<h2>Legend</h2>
<ul>
<li><span class="sample node miss share-2"></span> <code>miss</code> the provider ran; the box holds the queries it asked, in call order</li>
<li><span class="sample node hit"></span> <code>hit</code> the cache answered</li>
<li><span class="sample node blocked share-1"></span> <code>blocked</code> a wait, not work: for another thread computing the same key, or a PROFILE_WAIT scope</li>
<li><span class="sample node load share-1"></span> <code>load</code> read from a persistent cache</li>
<li><span class="sample node activity share-2"></span> <code>activity</code> a pass, not a query</li>
)";

constexpr std::string_view kLegendEnd =
    R"(<li><span class="sample node miss share-1 unfinished"></span> <code>unfinished</code> still open when the session ended</li>
<li><span class="sample fold">+12 queries</span> <code>fold</code> queries not drawn yet: click, or press Enter; <span class="sample fold">&#8943; 3,412 typeck runs</span> the folded queries of one provider among drawn siblings, drawn 250 at a time</li>
</ul>
<p>Every box also has the classes <code>depth-N</code> (ancestors), <code>extent-N</code> (immediate children), a duration bucket <code>dur-lt-1us</code> &hellip; <code>dur-ge-10s</code> and <code>share-0</code> &hellip; <code>share-4</code> (share of the busy time, of the box&#39;s work: &lt;0.1, &lt;1, &lt;5, &lt;20, &ge;20 %), so the page can be restyled.</p>
<p>Keys: &uarr; &darr; move, &rarr; or Enter opens, &larr; closes or goes to the parent, / searches, Esc clears the search.</p>
</section>
)";

// The timeline's frame; the viewer draws the tracks (reporters/html/timeline.js).
constexpr std::string_view kTimeline = R"html(<section id="timeline" aria-label="Timeline">
<div class="timeline-bar"><h2>Timeline</h2>
<button type="button" id="timeline-zoom-in" title="Zoom in (+)" aria-label="Zoom in">+</button><button type="button" id="timeline-zoom-out" title="Zoom out (-)" aria-label="Zoom out">&minus;</button><button type="button" id="timeline-reset" title="The whole run (0)">Whole run</button><button type="button" id="timeline-rows" title="Every depth of every track, or the first rows only" hidden>All rows</button>
<span id="timeline-span" aria-live="polite"></span>
<span id="range-status" class="range-note" hidden><span class="range-text"></span> <button type="button" class="range-clear">Clear range</button></span>
<span class="hint">Wheel or + &minus; zoom, drag or &larr; &rarr; pan, Shift+drag or a drag on the axis selects a time range for the statistics; click a slice (or [ ] &uarr; &darr; here) to select it in the tree, a track&#39;s name to show all its rows.</span></div>
<div id="timeline-view" tabindex="0" aria-label="Timeline: one track per thread. + and - zoom, left and right pan, 0 shows the whole run; [ and ] select the query before or after, up the parent, down the first child; Enter goes to it in the tree"><canvas id="timeline-canvas"></canvas><div id="timeline-spacer"></div></div>
<div id="timeline-tip" role="tooltip" hidden></div>
</section>
)html";

// The threads the selector lists, in thread order: every one up to layout::kThreadOptions,
// else that many, the first (shown when the page opens) and the busiest. Chromium takes tens of
// microseconds an option, and 20,000 threads made the page wait 2.3 s for its selector, a list
// nobody could pick from. The viewer lists a thread left out when it shows it (tree.js).
std::vector<std::size_t> listed_threads(const std::vector<Work>& works) {
    std::vector<std::size_t> listed(works.size());
    std::iota(listed.begin(), listed.end(), std::size_t{0});
    if (listed.size() <= layout::kThreadOptions) {
        return listed;
    }
    const auto busier = [&](std::size_t a, std::size_t b) {
        const std::int64_t busy_a = works[a].of_thread();
        const std::int64_t busy_b = works[b].of_thread();
        return busy_a != busy_b ? busy_a > busy_b : a < b;
    };
    const auto kept = static_cast<std::ptrdiff_t>(layout::kThreadOptions);
    std::nth_element(listed.begin() + 1, listed.begin() + kept, listed.end(), busier);
    listed.resize(layout::kThreadOptions);
    std::sort(listed.begin(), listed.end());
    return listed;
}

// `listed`: listed_threads(works).
void write_controls(std::ostream& out, const std::vector<Preorder>& orders,
                    const std::vector<Work>& works, const std::vector<std::size_t>& listed) {
    out << "<nav id=\"controls\">\n<label>Thread <select id=\"thread-select\">";
    for (const std::size_t i : listed) {
        // Busy time (work, waits left out) says which thread did the work: a pass may only
        // wait for workers.
        const Preorder& order = orders[i];
        out << "<option value=\"" << i << "\">" << html_escape(order.thread().name) << " \u00b7 "
            << count_text(order.size(), "event", "events") << " \u00b7 "
            << duration_text(works[i].of_thread()) << " busy"
            << "</option>";
    }
    if (listed.size() < orders.size()) {
        out << "<option value=\"\" disabled>"
            << count_text(orders.size() - listed.size(), "more thread", "more threads")
            << " (the busiest are listed): click one on the timeline</option>";
    }
    out << "</select></label>\n"
        << "<label>Order <select id=\"order-select\"><option value=\"heaviest\">heaviest "
           "first</option><option value=\"call\">call order</option></select></label>\n"
        << "<input id=\"search\" type=\"search\" placeholder=\"Search providers\" "
           "autocomplete=\"off\" aria-label=\"Search providers\">\n"
        << "<span id=\"search-status\" aria-live=\"polite\"></span>\n</nav>\n";
}

void write_trees(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders,
                 const std::vector<Work>& works, const std::vector<std::size_t>& listed,
                 const Importance& important) {
    out << "<main>\n<section id=\"trees\" aria-label=\"Query trace\">\n";
    if (orders.empty()) {
        out << "<p class=\"empty\">No query was recorded.</p>\n";
    }
    // The trees of the threads the selector lists, while the page's budget lasts. A hidden tree
    // for every thread made a merged build's page heavy and slow to open: 20,000 threads of two
    // events each wrote 6.6 MB of them, and the page took 3.2 s to become interactive.
    // A thread gets its whole budget or no tree: the viewer's, drawn when it is shown, is worth
    // more than its roots alone.
    std::size_t left = kPageElements;
    for (const std::size_t i : listed) {
        if (left < kInitialElements) {
            break;
        }
        out << "<div class=\"tree\" id=\"tree-" << i << "\" data-thread=\"" << i
            << "\" role=\"tree\" aria-label=\"thread " << html_escape(orders[i].thread().name)
            << "\" tabindex=\"0\"" << (i > 0 ? " hidden" : "") << ">";
        left -= std::min(
            left, write_initial_tree(out, trace, orders[i], works[i], important, kInitialElements));
        out << "</div>\n";
    }
    out << "</section>\n<aside id=\"details\" aria-live=\"polite\"><p class=\"hint\">Hover or "
           "click a box for its details.</p></aside>\n</main>\n";
}

void write_number_cell(std::ostream& out, std::int64_t value, const std::string& text) {
    out << "<td data-value=\"" << value << "\">" << text << "</td>";
}

// Run durations by decade, as bars of their share of the provider's runs.
void write_histogram_cell(std::ostream& out, const ProviderStats& s) {
    out << "<td class=\"histogram\" title=\"runs by duration: &lt;1 \u00b5s, &lt;10 \u00b5s, "
           "&lt;100 \u00b5s, &lt;1 ms, &lt;10 ms, &lt;100 ms, &lt;1 s, \u2265 1 s\">";
    for (const std::uint64_t count : s.histogram) {
        const std::uint64_t height = s.runs > 0 && count > 0 ? 1 + count * 15 / s.runs : 0;
        out << "<i style=\"height:" << height << "px\"></i>";
    }
    out << "</td>";
}

// With -Z profile-queries-memory, the table's memory columns: inclusive, then self.
constexpr std::string_view kMemoryHeads =
    "<th data-sort=\"alloc\">Allocated</th><th data-sort=\"allocs\">Allocations</th>"
    "<th data-sort=\"retained\">Retained</th><th data-sort=\"self-alloc\">Self allocated</th>"
    "<th data-sort=\"self-allocs\">Self allocations</th>"
    "<th data-sort=\"self-retained\">Self retained</th>";

constexpr std::string_view kMemoryHint =
    " Memory is what its runs allocated on their own thread while they were open, and what they "
    "retained (allocated less freed: negative when they freed older memory); self leaves out "
    "what the queries they asked allocated.";

void write_memory_cells(std::ostream& out, const ProviderStats& s) {
    for (const MemoryUse* use : {&s.memory_total, &s.memory_self}) {
        write_number_cell(out, static_cast<std::int64_t>(use->allocated_bytes),
                          bytes_text(static_cast<std::int64_t>(use->allocated_bytes)));
        write_number_cell(out, static_cast<std::int64_t>(use->allocations),
                          with_thousands(use->allocations));
        write_number_cell(out, use->retained_bytes, bytes_text(use->retained_bytes));
    }
}

void write_provider_table(std::ostream& out, const Trace& trace,
                          const std::vector<ProviderStats>& stats) {
    std::vector<std::uint32_t> rows(trace.providers.size());
    for (std::uint32_t i = 0; i < rows.size(); ++i) {
        rows[i] = i;
    }
    std::stable_sort(rows.begin(), rows.end(), [&](std::uint32_t a, std::uint32_t b) {
        return stats[a].self_ns > stats[b].self_ns;
    });
    out << "<section id=\"providers\">\n<h2>Providers</h2>\n<p class=\"hint\">A run is a call "
           "whose provider ran; a hit, one the cache answered; a wait is not work. Click a "
           "provider for its slowest runs and most-asked keys."
        << (trace.memory_recorded ? kMemoryHint : "") << "</p>\n<table id=\"provider-table\">\n"
        << "<thead><tr><th data-sort=\"provider\">Provider</th><th data-sort=\"runs\">Runs</th>"
           "<th data-sort=\"hits\">Hits</th><th data-sort=\"hit-rate\">Hit rate</th>"
           "<th data-sort=\"total\">Total</th><th data-sort=\"self\">Self</th>"
           "<th data-sort=\"mean\">Mean</th><th data-sort=\"median\">Median</th>"
           "<th data-sort=\"max\">Max</th><th>Runs by duration</th>"
        << (trace.memory_recorded ? kMemoryHeads : "") << "</tr></thead>\n<tbody>\n";
    for (std::uint32_t i : rows) {
        const ProviderTotals& p = trace.providers[i];
        const ProviderStats& s = stats[i];
        const auto runs = static_cast<std::int64_t>(s.runs);
        const auto hits = static_cast<std::int64_t>(s.hits);
        out << "<tr data-provider=\"" << i << "\"" << (p.is_activity ? " class=\"activity\"" : "")
            << "><td><a href=\"#\">" << html_escape(p.provider) << "</a>"
            << (p.is_activity ? " <small>pass</small>" : "");
        if (p.colour_class != 0) {
            out << " <small class=\"colour-class" << colour_css(p) << "\">"
                << html_escape(trace.colour_class_of(p)) << "</small>";
        }
        out << (s.waits > 0 ? " <small class=\"waits\">" + count_text(s.waits, "wait", "waits") +
                                  ", " + duration_text(s.wait_ns) + "</small>"
                            : "")
            << "</td>";
        write_number_cell(out, runs, with_thousands(s.runs));
        if (trace.selection.hits) {
            write_number_cell(out, hits, with_thousands(s.hits));
            write_number_cell(out, runs + hits == 0 ? -1 : hits * 1'000'000 / (runs + hits),
                              p.is_activity ? "\u2013" : rate_text(s.hits, s.runs + s.hits));
        } else {
            write_number_cell(out, -1, "\u2013");
            write_number_cell(out, -1,
                              p.is_activity ? "\u2013" : std::string{layout::kHitsNotRecorded});
        }
        write_number_cell(out, s.total_ns, duration_text(s.total_ns));
        write_number_cell(out, s.self_ns, duration_text(s.self_ns));
        write_number_cell(out, s.mean_ns, runs > 0 ? duration_text(s.mean_ns) : "\u2013");
        write_number_cell(out, s.median_ns, runs > 0 ? duration_text(s.median_ns) : "\u2013");
        write_number_cell(out, s.max_ns, runs > 0 ? duration_text(s.max_ns) : "\u2013");
        write_histogram_cell(out, s);
        if (s.memory) {
            write_memory_cells(out, s);
        }
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n</section>\n";
}

void write_legend(std::ostream& out, const Trace& trace, const ReportOptions& options) {
    out << kLegend;
    write_colour_legend(out, trace, "sample node miss share-2");
    out << "<li><span class=\"sample node miss share-3 important\"></span> "
        << "<code>important</code> " << number_text(options.important_percent)
        << " % or more of the busy time, or " << options.important_extent
        << " or more immediate children and 0.1 % (or that share, if lower) "
           "(-Z profile-queries-important): opened first and outlined; every box is labelled with "
           "its time and share</li>\n"
        << kLegendEnd;
}

class HtmlReporter : public Reporter {
  public:
    std::string_view name() const override { return "html"; }
    std::string_view description() const override {
        static_assert(layout::kColumnsBudgetBytes == 38'000'000, "the text below says 38 MB");
        return "the query trace as nested boxes, with providers, search and details (a browser "
               "page; hits' keys are left out of it, and it says so, when with them its trace "
               "would pass 38 MB)";
    }
    std::string_view file_suffix() const override { return "html"; }
    void configure(const ReportOptions& options) override { options_ = options; }

    void write(const Trace& trace, std::ostream& out) override {
        std::vector<Preorder> orders;
        for (const ThreadTrace& thread : trace.threads) {
            orders.emplace_back(thread);
        }
        std::vector<Work> works;
        works.reserve(orders.size());
        for (const Preorder& order : orders) {
            works.emplace_back(order);
        }
        const std::int64_t total_ns = busy_ns(trace, works);
        const Importance important{options_, total_ns};
        PayloadText payload{trace, orders, important};
        out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>qprof \u00b7 query profile</title>\n<style id=\"qprof-style\">";
        write_viewer_css(out);
        out << "</style>\n</head>\n<body>\n";
        const std::vector<ProviderStats> stats = provider_stats(trace, orders, works);
        write_run_header(out, trace, stats, total_ns);
        out << kTimeline;
        const std::vector<std::size_t> listed = listed_threads(works);
        write_controls(out, orders, works, listed);
        write_trees(out, trace, orders, works, listed, important);
        write_provider_table(out, trace, stats);
        write_measure_tables(out, trace);
        write_shapes(out, trace, orders, works, total_ns);
        write_legend(out, trace, options_);
        out << "<script type=\"application/octet-stream\" id=\"qprof-columns\">";
        const PayloadColumns& columns = payload.write(out);
        out << "</script>\n<script type=\"application/json\" id=\"qprof-trace\">";
        write_payload(out, trace, orders, important, stats, columns);
        out << "</script>\n<script id=\"qprof-viewer\">";
        write_viewer_js(out);
        out << "</script>\n</body>\n</html>\n";
    }

  private:
    ReportOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_html_reporter() { return std::make_unique<HtmlReporter>(); }

}  // namespace qprof::detail
