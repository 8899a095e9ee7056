// The html reporter tests' program (html_reporter_test.cpp, html_initial_view_test.cpp,
// html_labels_test.cpp): a small compile whose nodes are important by extent, drawn, or folded
// (html_workload.cpp), a pass of items each longer than the one before, and the page, or the
// initial view of a thread, the html reporter writes of a trace.
#pragma once

#include <cstddef>
#include <qprof/qprof.hpp>
#include <string>

#include "html_parts.hpp"
#include "test_support.hpp"

namespace qprof::test::html_workload {

void type_of(int id);
// Seven sub-queries: important by extent whatever its time.
void typeck_wide();
// Parsing, then an analysis of a wide and a narrow typeck, six unimportant queries and a load.
void compile();
// A pass of sixty items, none important: item i asks type_of i times, so each is longer.
void many_items();

inline std::string html_of(const qprof::Trace& trace, const qprof::ReportOptions& options = {}) {
    return qprof::test::report_text("html", trace, options);
}

// The initial view of thread 0's tree, within `budget` elements, with nodes important as
// `importance` says.
std::string initial_tree(
    const qprof::Trace& trace, const qprof::ReportOptions& importance, std::size_t budget,
    qprof::detail::html::SiblingOrder sibling_order = qprof::detail::html::SiblingOrder::call);

}  // namespace qprof::test::html_workload
