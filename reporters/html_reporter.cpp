// profile_queries.html: the query trace as nested boxes -- misses as boxes holding their
// sub-queries, hits as dots, important nodes labelled -- with totals, a provider table, the
// widest and deepest nodes, and the whole trace for the viewer to draw on demand. One
// self-contained file; see README, "The HTML report".
#include <algorithm>
#include <cstdio>

#include "builtin_reporters.hpp"
#include "html_parts.hpp"
#include "text.hpp"

namespace qprof::detail {

namespace {

using namespace html;

// Elements drawn per thread before the viewer takes over: enough for every important node of
// a typical run, few enough that the page opens at once.
constexpr std::size_t kInitialElements = 4'000;
constexpr std::size_t kShapeListLength = 10;
constexpr std::size_t kHotProviders = 5;

constexpr std::string_view kLegend = R"(<section id="legend">
<h2>Legend</h2>
<ul>
<li><span class="sample node miss share-2"></span> <code>miss</code> the provider ran; the box holds the queries it asked, in call order</li>
<li><span class="sample node hit"></span> <code>hit</code> the cache answered</li>
<li><span class="sample node blocked share-1"></span> <code>blocked</code> waited for another thread computing the same key</li>
<li><span class="sample node load share-1"></span> <code>load</code> read from a persistent cache</li>
<li><span class="sample node activity share-2"></span> <code>activity</code> a pass, not a query</li>
)";

constexpr std::string_view kLegendEnd =
    R"(<li><span class="sample node miss share-1 unfinished"></span> <code>unfinished</code> still open when the session ended</li>
<li><span class="sample fold">+12 queries</span> <code>fold</code> queries not drawn yet: click, or press Enter</li>
</ul>
<p>Every box also has the classes <code>depth-N</code> (ancestors), <code>extent-N</code> (immediate children), a duration bucket <code>dur-lt-1us</code> &hellip; <code>dur-ge-10s</code> and <code>share-0</code> &hellip; <code>share-4</code> (share of the wall time: &lt;0.1, &lt;1, &lt;5, &lt;20, &ge;20 %), so the page can be restyled.</p>
<p>Keys: &uarr; &darr; move, &rarr; or Enter opens, &larr; closes or goes to the parent, / searches, Esc clears the search.</p>
</section>
)";

struct Totals {
    std::uint64_t queries = 0;  // activities are not queries
    std::uint64_t hits = 0;
};

Totals totals_of(const Trace& trace) {
    Totals totals;
    for (const ProviderTotals& provider : trace.providers) {
        if (!provider.is_activity) {
            totals.queries += provider.count;
            totals.hits += provider.hits;
        }
    }
    return totals;
}

std::string rate_text(std::uint64_t part, std::uint64_t whole) {
    if (whole == 0) {
        return "\u2013";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%",
                  100.0 * static_cast<double>(part) / static_cast<double>(whole));
    return text;
}

// Where the time went, in one line: the providers with the most self time, each a search.
void write_hot_providers(std::ostream& out, const Trace& trace) {
    std::vector<const ProviderTotals*> hot;
    for (const ProviderTotals& provider : trace.providers) {
        if (provider.self_ns > 0) {
            hot.push_back(&provider);
        }
    }
    std::stable_sort(hot.begin(), hot.end(),
                     [](const auto* a, const auto* b) { return a->self_ns > b->self_ns; });
    hot.resize(std::min(hot.size(), kHotProviders));
    if (hot.empty()) {
        return;
    }
    // Shares of the time of all threads together, so that parallel work adds up to 100 %.
    std::int64_t all_threads_ns = 0;
    for (const ProviderTotals& provider : trace.providers) {
        all_threads_ns += provider.self_ns;
    }
    out << "<p id=\"hot-providers\" title=\"self time as a share of the time of all threads "
           "together\">Most self time:";
    for (const ProviderTotals* provider : hot) {
        out << (provider == hot.front() ? " " : " \u00b7 ") << "<a href=\"#\" data-search=\""
            << escape(provider->provider) << "\">" << escape(provider->provider) << "</a> "
            << escape(percent_text(provider->self_ns, all_threads_ns));
    }
    out << "</p>\n";
}

void write_summary(std::ostream& out, const Trace& trace) {
    const Totals totals = totals_of(trace);
    out << "<header id=\"summary\">\n<h1>Query profile</h1>\n<dl>\n";
    if (!trace.program.empty()) {
        out << "<div><dt>Program</dt><dd id=\"program\">" << escape(trace.program)
            << (trace.pid != 0 ? " (pid " + std::to_string(trace.pid) + ")" : std::string{})
            << "</dd></div>\n";
    }
    out << "<div><dt>Wall time</dt><dd id=\"total-wall\">" << duration_text(trace.wall_ns)
        << "</dd></div>\n<div><dt>Queries</dt><dd id=\"total-queries\">"
        << with_thousands(totals.queries) << "</dd></div>\n<div><dt>Hits</dt><dd id=\"total-hits\">"
        << with_thousands(totals.hits) << " (" << rate_text(totals.hits, totals.queries)
        << ")</dd></div>\n<div><dt>Threads</dt><dd id=\"total-threads\">" << trace.threads.size()
        << "</dd></div>\n<div><dt>Clock</dt><dd>" << escape(trace.clock)
        << (trace.keys_recorded ? ", keys recorded" : "") << "</dd></div>\n</dl>\n";
    write_hot_providers(out, trace);
    out << "</header>\n";
}

void write_controls(std::ostream& out, const std::vector<Preorder>& orders) {
    out << "<nav id=\"controls\">\n<label>Thread <select id=\"thread-select\">";
    for (std::size_t i = 0; i < orders.size(); ++i) {
        // Busy time says which thread did the work: a pass may only wait for workers.
        const Preorder& order = orders[i];
        out << "<option value=\"" << i << "\">" << escape(order.thread().name) << " \u00b7 "
            << with_thousands(order.size()) << (order.size() == 1 ? " event" : " events")
            << " \u00b7 " << duration_text(order.run_duration_ns(0, order.size())) << " busy"
            << "</option>";
    }
    out << "</select></label>\n"
        << "<input id=\"search\" type=\"search\" placeholder=\"Search providers\" "
           "autocomplete=\"off\" aria-label=\"Search providers\">\n"
        << "<span id=\"search-status\" aria-live=\"polite\"></span>\n</nav>\n";
}

void write_trees(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders,
                 const Importance& important) {
    out << "<main>\n<section id=\"trees\" aria-label=\"Query trace\">\n";
    if (orders.empty()) {
        out << "<p class=\"empty\">No query was recorded.</p>\n";
    }
    for (std::size_t i = 0; i < orders.size(); ++i) {
        out << "<div class=\"tree\" id=\"tree-" << i << "\" data-thread=\"" << i
            << "\" role=\"tree\" aria-label=\"thread " << escape(orders[i].thread().name)
            << "\" tabindex=\"0\"" << (i > 0 ? " hidden" : "") << ">";
        write_initial_tree(out, trace, orders[i], important, kInitialElements);
        out << "</div>\n";
    }
    out << "</section>\n<aside id=\"details\" aria-live=\"polite\"><p class=\"hint\">Hover or "
           "click a box for its details.</p></aside>\n</main>\n";
}

void write_number_cell(std::ostream& out, std::int64_t value, const std::string& text) {
    out << "<td data-value=\"" << value << "\">" << text << "</td>";
}

void write_provider_table(std::ostream& out, const Trace& trace) {
    std::vector<std::uint32_t> rows(trace.providers.size());
    for (std::uint32_t i = 0; i < rows.size(); ++i) {
        rows[i] = i;
    }
    std::stable_sort(rows.begin(), rows.end(), [&](std::uint32_t a, std::uint32_t b) {
        return trace.providers[a].total_ns > trace.providers[b].total_ns;
    });
    out << "<section id=\"providers\">\n<h2>Providers</h2>\n<table id=\"provider-table\">\n"
        << "<thead><tr><th data-sort=\"provider\">Provider</th><th data-sort=\"count\">Count</th>"
           "<th data-sort=\"total\">Total time</th><th data-sort=\"self\">Self time</th>"
           "<th data-sort=\"hits\">Hits</th><th data-sort=\"hit-rate\">Hit rate</th></tr>"
           "</thead>\n<tbody>\n";
    for (std::uint32_t i : rows) {
        const ProviderTotals& p = trace.providers[i];
        const auto count = static_cast<std::int64_t>(p.count);
        const auto hits = static_cast<std::int64_t>(p.hits);
        out << "<tr data-provider=\"" << i << "\"" << (p.is_activity ? " class=\"activity\"" : "")
            << "><td>" << escape(p.provider) << (p.is_activity ? " <small>activity</small>" : "")
            << "</td>";
        write_number_cell(out, count, with_thousands(p.count));
        write_number_cell(out, p.total_ns, duration_text(p.total_ns));
        write_number_cell(out, p.self_ns, duration_text(p.self_ns));
        write_number_cell(out, hits, with_thousands(p.hits));
        write_number_cell(out, count == 0 ? -1 : hits * 1'000'000 / count,
                          p.is_activity ? "\u2013" : rate_text(p.hits, p.count));
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n</section>\n";
}

struct NodeRef {
    std::uint32_t thread;
    std::uint32_t n;
};

// The `count` nodes that come first by `before`, over every thread; `keep` filters.
template <typename Before, typename Keep>
std::vector<NodeRef> top_nodes(const std::vector<Preorder>& orders, std::size_t count,
                               Before before, Keep keep) {
    std::vector<NodeRef> best;
    for (std::uint32_t t = 0; t < orders.size(); ++t) {
        for (std::uint32_t n = 0; n < orders[t].size(); ++n) {
            const NodeRef node{t, n};
            if (!keep(node) || (best.size() == count && !before(node, best.back()))) {
                continue;
            }
            best.insert(std::upper_bound(best.begin(), best.end(), node, before), node);
            if (best.size() > count) {
                best.pop_back();
            }
        }
    }
    return best;
}

void write_shape_list(std::ostream& out, std::string_view id, const Trace& trace,
                      const std::vector<Preorder>& orders, const std::vector<NodeRef>& nodes) {
    out << "<ol id=\"" << id << "\">";
    for (const NodeRef& ref : nodes) {
        const Preorder& order = orders[ref.thread];
        const Node& node = order.node(ref.n);
        out << "<li><a href=\"#\" data-thread=\"" << ref.thread << "\" data-n=\"" << ref.n << "\">"
            << escape(trace.provider_of(node).provider) << " \u00b7 extent " << node.extent
            << " \u00b7 depth " << order.depth(ref.n) << " \u00b7 "
            << escape(percent_text(order.duration_ns(ref.n), trace.wall_ns)) << "</a>"
            << (orders.size() > 1 ? " <small>" + escape(order.thread().name) + "</small>" : "")
            << "</li>";
    }
    out << "</ol>\n";
}

// The first nodes of `nodes` that share no ancestor at half their depth: deep nodes of one
// chain of queries say the same thing.
std::vector<NodeRef> one_per_chain(const std::vector<Preorder>& orders,
                                   const std::vector<NodeRef>& nodes) {
    std::vector<NodeRef> kept;
    std::vector<NodeRef> chains;
    for (const NodeRef& node : nodes) {
        const Preorder& order = orders[node.thread];
        NodeRef chain = node;
        for (std::uint32_t up = order.depth(node.n) - order.depth(node.n) / 2; up > 0; --up) {
            chain.n = order.parent(chain.n);
        }
        const bool seen = std::any_of(chains.begin(), chains.end(), [&](const NodeRef& other) {
            return other.thread == chain.thread && other.n == chain.n;
        });
        if (!seen && kept.size() < kShapeListLength) {
            chains.push_back(chain);
            kept.push_back(node);
        }
    }
    return kept;
}

void write_shapes(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders) {
    auto longer = [&](NodeRef a, NodeRef b) {
        return orders[a.thread].duration_ns(a.n) > orders[b.thread].duration_ns(b.n);
    };
    const std::vector<NodeRef> widest = top_nodes(
        orders, kShapeListLength,
        [&](NodeRef a, NodeRef b) {
            const std::uint32_t ea = orders[a.thread].node(a.n).extent;
            const std::uint32_t eb = orders[b.thread].node(b.n).extent;
            return ea != eb ? ea > eb : longer(a, b);
        },
        [&](NodeRef node) { return orders[node.thread].node(node.n).extent > 0; });
    // The deepest nodes, first children only: siblings at the bottom of a chain say the same.
    std::vector<NodeRef> deepest;
    auto deeper = [&](NodeRef a, NodeRef b) {
        const std::uint32_t da = orders[a.thread].depth(a.n);
        const std::uint32_t db = orders[b.thread].depth(b.n);
        return da != db ? da > db : longer(a, b);
    };
    deepest =
        one_per_chain(orders, top_nodes(orders, kShapeListLength * 20, deeper, [&](NodeRef node) {
                          const Preorder& order = orders[node.thread];
                          return order.depth(node.n) > 0 && order.parent(node.n) + 1 == node.n;
                      }));
    if (widest.empty() && deepest.empty()) {
        return;  // no node has a child: nothing to point out
    }
    out << "<section id=\"shapes\">\n<h2>Widest nodes</h2>\n<p>Most immediate children: a "
           "change below them reruns many queries.</p>\n";
    write_shape_list(out, "widest", trace, orders, widest);
    out << "<h2>Deepest nodes</h2>\n<p>Longest chains of queries, one per chain.</p>\n";
    write_shape_list(out, "deepest", trace, orders, deepest);
    out << "</section>\n";
}

// Up to 3 decimals, trailing zeros dropped: 1, 0.5, 0.001.
std::string number_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    std::string trimmed = text;
    trimmed.erase(trimmed.find_last_not_of('0') + 1);
    if (trimmed.back() == '.') {
        trimmed.pop_back();
    }
    return trimmed;
}

void write_legend(std::ostream& out, const ReportOptions& options) {
    out << kLegend << "<li><span class=\"sample node miss share-3 important\"></span> "
        << "<code>important</code> " << options.important_extent
        << " or more immediate children, or " << number_text(options.important_percent)
        << " % or more of the wall time (-Z profile-queries-important): labelled with its "
           "share</li>\n"
        << kLegendEnd;
}

class HtmlReporter : public Reporter {
  public:
    std::string_view name() const override { return "html"; }
    std::string_view description() const override {
        return "the query trace as nested boxes, with providers, search and details (a browser "
               "page)";
    }
    std::string_view file_suffix() const override { return "html"; }
    void configure(const ReportOptions& options) override { options_ = options; }

    void write(const Trace& trace, std::ostream& out) override {
        const Importance important{options_, trace.wall_ns};
        std::vector<Preorder> orders;
        for (const ThreadTrace& thread : trace.threads) {
            orders.emplace_back(thread);
        }
        out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>qprof \u00b7 query profile</title>\n<style id=\"qprof-style\">";
        write_viewer_css(out);
        out << "</style>\n</head>\n<body>\n";
        write_summary(out, trace);
        write_controls(out, orders);
        write_trees(out, trace, orders, important);
        write_provider_table(out, trace);
        write_shapes(out, trace, orders);
        write_legend(out, options_);
        out << "<script type=\"application/json\" id=\"qprof-trace\">";
        write_payload(out, trace, orders, important);
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
