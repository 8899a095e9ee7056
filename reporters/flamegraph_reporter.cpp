// profile_queries.flamegraph.html: the trace merged by call path and drawn as a flame graph by
// the page itself -- frames as wide as their inclusive time, the root at the bottom -- with
// hover details, click to zoom and search. One self-contained file; the contract is in
// docs/flamegraph-report.md.
#include "builtin_reporters.hpp"
#include "flamegraph_parts.hpp"
#include "format.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"

namespace qprof::detail {

namespace {

using namespace flamegraph;

constexpr std::string_view kControls = R"html(<nav id="controls">
<input id="search" type="search" placeholder="Search providers" autocomplete="off" aria-label="Search providers">
<span id="search-status" aria-live="polite"></span>
<button id="reset" type="button" title="Reset zoom (Esc)">Reset zoom</button>
<span id="zoom-status" aria-live="polite"></span>
)html";

// Offered only when the run recorded memory (-Z profile-queries-memory).
constexpr std::string_view kWeightSwitch =
    R"html(<label id="weight" title="Frames as wide as the bytes allocated inside them instead of their time"><input id="weight-bytes" type="checkbox"> Weigh by allocated bytes</label>
)html";

constexpr std::string_view kCanvas = R"html(</nav>
<main id="flame">
<canvas id="flame-canvas" role="img" aria-label="Flame graph of the queries: each frame as wide as its inclusive time, callers below their callees"></canvas>
<div id="tooltip" role="tooltip" hidden></div>
</main>
)html";

constexpr std::string_view kLegend = R"(<section id="legend">
<h2>Legend</h2>
<ul>
<li><span class="swatch miss"></span> <code>miss</code> a provider ran (warm colours, one per provider)</li>
<li><span class="swatch activity"></span> <code>activity</code> a pass, not a query</li>
<li><span class="swatch blocked"></span> <code>blocked</code> a wait, not work: for another thread computing the same key, or a PROFILE_WAIT scope; counted apart as Waiting</li>
<li><span class="swatch load"></span> <code>load</code> read from a persistent cache</li>
)";

constexpr std::string_view kLegendEnd =
    R"(<li><span class="swatch thread"></span> <code>thread</code> a thread; the bottom frame is all threads together</li>
<li><span class="swatch hits"></span> <code>hits</code> cache hits take no time, so they are no frames: the blue strip on top of a frame is the share of the queries it asked that the cache answered</li>
</ul>
<p>Each frame is one call path: every run of that provider under the same callers, merged. Width is inclusive time, waits included; the percentages are of the busy time (the threads' time added up, waits left out), as in profile_queries.html and qprof summarize: a frame's is of its time less the waits inside it, and a wait has none.</p>
<p>Hover a frame for its details; click it to zoom, click a frame below to zoom out. Keys: / searches, Esc clears the search or resets the zoom.</p>
</section>
)";

// The kinds, the run's colour classes, then what width means (by bytes too with memory).
void write_legend(std::ostream& out, const Trace& trace) {
    out << kLegend;
    html::write_colour_legend(out, trace, "swatch");
    const std::size_t end = kLegendEnd.rfind("</section>");
    out << kLegendEnd.substr(0, end);
    if (trace.memory_recorded) {
        out << "<p>With <em>Weigh by allocated bytes</em> checked, width is the bytes allocated "
               "inside a frame instead, and the percentages are of all the bytes allocated.</p>\n";
    }
    out << kLegendEnd.substr(end);
}

void write_header(std::ostream& out, const Trace& trace, const GraphTotals& totals) {
    auto item = [&](std::string_view term, std::string_view id, const std::string& value) {
        out << "<div><dt>" << term << "</dt><dd id=\"" << id << "\">" << html_escape(value)
            << "</dd></div>\n";
    };
    out << "<header id=\"summary\">\n<h1>Query flame graph</h1>\n<dl>\n";
    item("Wall time", "total-wall", duration_text(trace.wall_ns));
    item("Full width", "total-time", duration_text(totals.total_ns));
    // Waiting is drawn (amber frames) but is not work: the header says how much of the width
    // it takes.
    item("Busy time (work)", "total-work", duration_text(totals.total_ns - totals.waiting_ns));
    item("Waiting (not work)", "total-waiting", duration_text(totals.waiting_ns));
    item("Queries", "total-queries", with_thousands(totals.queries));
    item("Hits", "total-hits",
         trace.selection.hits
             ? with_thousands(totals.hits) + " (" + rate_text(totals.hits, totals.queries) + ")"
             : std::string{html::layout::kHitsNotRecorded});
    item("Threads", "total-threads", std::to_string(trace.threads.size()));
    item("Frames", "total-frames", with_thousands(totals.frames));
    if (trace.memory_recorded) {
        item("Allocated", "total-allocated", bytes_text(totals.total_bytes));
    }
    if (const std::string left_out = trace.selection.left_out(trace.keys_recorded);
        !left_out.empty()) {
        item("Not recorded", "not-recorded", left_out);
    }
    out << "</dl>\n</header>\n";
}

class FlamegraphReporter : public Reporter {
  public:
    std::string_view name() const override { return "flamegraph"; }
    std::string_view description() const override {
        return "an interactive flame graph of the queries by call path (a browser page)";
    }
    std::string_view file_suffix() const override { return "flamegraph.html"; }

    void write(const Trace& trace, std::ostream& out) override {
        // An activity's argument makes frames of its own, "codegen unit(math)".
        const StackTree tree{trace, StackOptions{.hits = true, .args = true}};
        const GraphTotals totals = graph_totals(tree);
        out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>qprof \u00b7 query flame graph</title>\n<style id=\"qprof-style\">";
        write_viewer_css(out);
        out << "</style>\n</head>\n<body>\n";
        write_header(out, trace, totals);
        out << kControls << (trace.memory_recorded ? kWeightSwitch : "") << kCanvas;
        write_legend(out, trace);
        out << "<script type=\"application/json\" id=\"qprof-flamegraph\">";
        write_payload(out, trace, tree, totals);
        out << "</script>\n<script id=\"qprof-viewer\">";
        write_viewer_js(out);
        out << "</script>\n</body>\n</html>\n";
    }
};

}  // namespace

std::unique_ptr<Reporter> make_flamegraph_reporter() {
    return std::make_unique<FlamegraphReporter>();
}

}  // namespace qprof::detail
