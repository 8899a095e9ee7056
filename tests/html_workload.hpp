// The html reporter tests' program (html_reporter_test.cpp, html_initial_view_test.cpp): a
// small compile whose nodes are important by extent, drawn, or folded (html_workload.cpp), and
// the page the html reporter writes of a trace.
#pragma once

#include <qprof/qprof.hpp>
#include <string>

#include "test_support.hpp"

namespace qprof::test::html_workload {

void type_of(int id);
// Seven sub-queries: important by extent whatever its time.
void typeck_wide();
// Parsing, then an analysis of a wide and a narrow typeck, six unimportant queries and a load.
void compile();

inline std::string html_of(const qprof::Trace& trace, const qprof::ReportOptions& options = {}) {
    return qprof::test::report_text("html", trace, options);
}

}  // namespace qprof::test::html_workload
