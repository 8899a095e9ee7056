// qprof diff --html: one page, nothing fetched, light and dark. The page holds the document
// `qprof diff --json` writes, and its viewer (reporters/diff/main.js) draws the runs and the
// table from it; what is written here is the frame and the notes.
#include "diff.hpp"
#include "diff_viewer.hpp"
#include "format.hpp"

namespace qprof::cli {

namespace {

// Where each provider's row links: the new run's report, expected beside the page.
constexpr std::string_view kReportPage = "profile_queries.html";

void write_notes(std::ostream& out, const DiffRun& base, const DiffRun& next) {
    out << "<p class=\"note\">Self time: a provider's own time of work, without the queries it "
           "asked and without waits. Per run: self time over the calls the cache did not answer. "
           "Changes are new minus base; "
        << detail::html_escape(noise_text(base))
        << "; click a column title to sort.</p>\n<p class=\"note\" id=\"links-note\">A click "
           "on a provider's row opens its statistics in <code>"
        << kReportPage << "</code>, the report of the new run (<code>"
        << detail::html_escape(next.file)
        << "</code>), which the links expect in this page's folder: write it there with "
           "<code>qprof report "
        << detail::html_escape(next.file)
        << " -o DIR</code>. Providers found only in the base run have no link.</p>\n";
}

}  // namespace

void write_diff_html(const DiffRun& base, const DiffRun& next, DiffSort sort, std::ostream& out) {
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        << "<title>qprof diff: " << detail::html_escape(base.file) << " &rarr; "
        << detail::html_escape(next.file) << "</title>\n<style id=\"qprof-style\">";
    diff_viewer::write_viewer_css(out);
    out << "</style>\n</head>\n<body>\n<h1>qprof diff</h1>\n<section id=\"runs\" "
           "class=\"runs\"></section>\n<table id=\"diff-table\" data-report=\""
        << kReportPage << "\"><thead></thead><tbody></tbody></table>\n";
    write_notes(out, base, next);
    out << "<noscript><p>This page draws its table with JavaScript; <code>qprof diff</code> "
           "without --html prints the same as text.</p></noscript>\n"
           "<script type=\"application/json\" id=\"qprof-diff\">";
    write_diff_json(base, next, sort, out);  // json_string escapes '<': safe in a <script>
    out << "</script>\n<script id=\"qprof-viewer\">";
    diff_viewer::write_viewer_js(out);
    out << "</script>\n</body>\n</html>\n";
}

}  // namespace qprof::cli
