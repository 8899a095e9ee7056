// qprof diff --html: one page, nothing fetched, light and dark; the columns sort on click.
#include <algorithm>

#include "diff.hpp"
#include "html_parts.hpp"
#include "summary.hpp"

namespace qprof::cli {

namespace {

constexpr std::string_view kPageStyle =
    R"(:root { color-scheme: light dark; --bg: #fff; --fg: #1d1f23;
  --muted: #60656f; --rule: #d6d9de; --panel: #f5f6f8; --faster: #13866b; --slower: #d0302f; }
@media (prefers-color-scheme: dark) { :root { --bg: #16181c; --fg: #e3e5e8; --muted: #9aa0aa;
  --rule: #3a3f48; --panel: #1f2228; --faster: #3cc49d; --slower: #f0625f; } }
body { margin: 2em; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, sans-serif; }
h1 { font-size: 1.4em; margin: 0 0 .8em; }
.runs { display: flex; flex-wrap: wrap; gap: 1em; margin-bottom: 1.5em; }
.run { background: var(--panel); border: 1px solid var(--rule); border-radius: 6px; padding: .6em 1em; }
.run h2 { font-size: .8em; text-transform: uppercase; color: var(--muted); margin: 0; }
.run p { margin: .2em 0 0; }
.faster { color: var(--faster); }
.slower { color: var(--slower); }
table { border-collapse: collapse; }
th, td { padding: .25em .7em; border-bottom: 1px solid var(--rule); text-align: right; white-space: nowrap; }
th { cursor: pointer; user-select: none; }
th[data-order=desc]::after { content: " \25be"; }
th[data-order=asc]::after { content: " \25b4"; }
th:first-child, td:first-child { text-align: left; white-space: normal; }
tr.only td { font-style: italic; color: var(--muted); }
tr.noise td { color: var(--muted); }
tr.noise .bar span { opacity: .35; }
.mark { font-style: normal; font-size: .8em; border: 1px solid var(--rule); border-radius: 3px; padding: 0 .3em; margin-left: .4em; }
.bar { position: relative; width: 14em; }
.bar::before { content: ""; position: absolute; left: 50%; top: 15%; bottom: 15%; border-left: 1px solid var(--muted); }
.bar span { position: absolute; top: 25%; bottom: 25%; border-radius: 2px; }
.bar .faster { right: 50%; background: var(--faster); }
.bar .slower { left: 50%; background: var(--slower); }
.note { color: var(--muted); })";

// Click a column title to sort by it; click again to reverse.
constexpr std::string_view kSortScript = R"(for (const th of document.querySelectorAll("th")) {
  th.addEventListener("click", () => {
    const body = document.querySelector("tbody"), column = th.cellIndex;
    const order = th.dataset.order === "desc" ? "asc" : "desc";
    for (const other of document.querySelectorAll("th")) delete other.dataset.order;
    th.dataset.order = order;
    const value = (row) => { const v = row.cells[column].dataset.v;
      return v === undefined ? -Infinity : column === 0 ? v : Number(v); };
    const rows = [...body.rows].sort((a, b) => { const x = value(a), y = value(b);
      return (x < y ? -1 : x > y ? 1 : 0) * (order === "asc" ? 1 : -1); });
    body.append(...rows);
  });
})";

std::string change_class(std::int64_t change) {
    return change < 0 ? "faster" : change > 0 ? "slower" : "";
}

std::string signed_duration_text(std::int64_t ns) {
    const std::string magnitude = detail::html::duration_text(ns < 0 ? -ns : ns);
    return (ns > 0 ? "+" : ns < 0 ? "-" : "") + magnitude;
}

void write_html_run(std::ostream& out, std::string_view role, const DiffRun& run) {
    out << "<div class=\"run\"><h2>" << role << "</h2><p><code>" << detail::html::escape(run.file)
        << "</code></p><p>" << detail::html::duration_text(run.trace.wall_ns)
        << " wall time &middot; " << events_text(run.trace) << "</p></div>\n";
}

void write_html_header(std::ostream& out, const DiffRun& base, const DiffRun& next) {
    const std::int64_t change = next.trace.wall_ns - base.trace.wall_ns;
    out << "<h1>qprof diff</h1>\n<section class=\"runs\">\n";
    write_html_run(out, "base", base);
    write_html_run(out, "new", next);
    out << "<div class=\"run\"><h2>wall time change</h2><p class=\"" << change_class(change)
        << "\">" << signed_duration_text(change) << " ("
        << signed_percent_text(wall_change_percent(base, next)) << ")</p></div>\n</section>\n";
}

std::string html_cell(const std::string& text, const std::string& sort_value,
                      const std::string& classes = "") {
    std::string cell = "<td";
    if (!classes.empty()) {
        cell += " class=\"" + classes + "\"";
    }
    if (!sort_value.empty()) {
        cell += " data-v=\"" + sort_value + "\"";  // numbers only: nothing to escape
    }
    return cell + ">" + text + "</td>";
}

// A bar from the middle line: left and green when faster, right and red when slower, half the
// cell for the largest change.
std::string html_bar(std::int64_t change, std::int64_t largest_change) {
    const double share = largest_change > 0 ? 50.0 * std::abs(static_cast<double>(change)) /
                                                  static_cast<double>(largest_change)
                                            : 0.0;
    return html_cell("<span class=\"" + change_class(change) +
                         "\" style=\"width:" + json_number(share) + "%\"></span>",
                     std::to_string(std::abs(change)), "bar");
}

std::string html_name_cell(const DiffRow& row) {
    std::string text = detail::html::escape(row.provider);
    if (row.is_activity) {
        text += " <span class=\"mark\">activity</span>";
    }
    if (row.presence != Presence::both) {
        text += " <span class=\"mark\">" + std::string(presence_name(row.presence)) + "</span>";
    }
    if (row.noise) {
        text += " <span class=\"mark\">~ noise</span>";
    }
    return "<td data-v=\"" + detail::html::escape(row.provider) + "\">" + text + "</td>";
}

std::string html_mean_cell(std::optional<std::int64_t> ns) {
    return ns ? html_cell(detail::html::duration_text(*ns), std::to_string(*ns))
              : html_cell("\u2014", "");
}

std::string html_self_cell(std::int64_t ns, bool present) {
    return present ? html_cell(detail::html::duration_text(ns), std::to_string(ns))
                   : html_cell("\u2014", "0");
}

void write_html_row(std::ostream& out, const DiffRow& row, std::int64_t largest_change) {
    const std::optional<double> percent = row.change_percent;
    const std::string_view classes = row.noise                        ? " class=\"noise\""
                                     : row.presence != Presence::both ? " class=\"only\""
                                                                      : "";
    out << "<tr" << classes << ">" << html_name_cell(row)
        << html_self_cell(row.base_self_ns, row.presence != Presence::only_new)
        << html_self_cell(row.new_self_ns, row.presence != Presence::only_base)
        << html_cell(signed_duration_text(row.change_ns), std::to_string(row.change_ns),
                     row.noise ? "" : change_class(row.change_ns))
        << html_cell(signed_percent_text(percent), percent ? json_number(*percent) : "")
        << html_bar(row.change_ns, largest_change) << html_mean_cell(row.base_mean_ns)
        << html_mean_cell(row.new_mean_ns)
        << html_cell(signed_count_text(row.count_change), std::to_string(row.count_change))
        << html_cell(signed_count_text(row.hits_change), std::to_string(row.hits_change))
        << "</tr>\n";
}

void write_html_table(std::ostream& out, const std::vector<DiffRow>& rows) {
    std::int64_t largest_change = 0;
    for (const DiffRow& row : rows) {
        largest_change = std::max(largest_change, std::abs(row.change_ns));
    }
    out << "<table>\n<thead><tr><th>provider</th><th>base self</th><th>new self</th>"
           "<th>change</th><th>change %</th><th>faster &middot; slower</th><th>base per "
           "run</th><th>new per run</th><th>count</th>"
           "<th>hits</th></tr></thead>\n<tbody>\n";
    for (const DiffRow& row : rows) {
        write_html_row(out, row, largest_change);
    }
    out << "</tbody>\n</table>\n";
}

}  // namespace

void write_diff_html(const DiffRun& base, const DiffRun& next, DiffSort sort, std::ostream& out) {
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        << "<title>qprof diff: " << detail::html::escape(base.file) << " &rarr; "
        << detail::html::escape(next.file) << "</title>\n<style>\n"
        << kPageStyle << "\n</style>\n</head>\n<body>\n";
    write_html_header(out, base, next);
    write_html_table(out, diff_rows(base.trace, next.trace, sort));
    out << "<p class=\"note\">Self time: a provider's own time of work, without the queries it "
           "asked and without waits. Per run: self time over the calls the cache did not answer. "
           "Changes are new minus base; "
        << detail::html::escape(noise_text(base))
        << "; click a column title to sort.</p>\n<script>\n"
        << kSortScript << "\n</script>\n</body>\n</html>\n";
}

}  // namespace qprof::cli
