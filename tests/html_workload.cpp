// The html reporter tests' program (html_workload.hpp).
#include "html_workload.hpp"

#include <sstream>

namespace qprof::test::html_workload {

void type_of(int id) { PROFILE_QUERY(type_of, id); }

void typeck_wide() {
    PROFILE_QUERY(typeck, 1);
    for (int id = 0; id < 7; ++id) {
        type_of(id);
        PROFILE_QUERY_HIT(type_of, id);
    }
}

// Few sub-queries and little time: drawn, but not important.
void typeck_narrow() {
    PROFILE_QUERY(typeck, 2);
    PROFILE_QUERY_HIT(type_of, 0);
    type_of(8);
}

void compile() {
    {
        PROFILE_ACTIVITY("parsing");
        PROFILE_QUERY(parse, 0);
    }
    PROFILE_ACTIVITY("analysis");
    typeck_wide();
    typeck_narrow();
    for (int id = 10; id < 16; ++id) {  // a run of six unimportant queries: one fold
        type_of(id);
    }
    PROFILE_QUERY_LOAD(mir, 1);
}

void many_items() {
    PROFILE_QUERY(check_items, 0);
    for (int item = 0; item < 60; ++item) {
        PROFILE_QUERY(item_of, item);
        for (int id = 0; id < item; ++id) {
            type_of(id);
        }
    }
}

std::string initial_tree(const qprof::Trace& trace, const qprof::ReportOptions& importance,
                         std::size_t budget, qprof::detail::html::SiblingOrder sibling_order) {
    const qprof::detail::Preorder order{trace.threads.at(0)};
    std::ostringstream out;
    qprof::detail::html::write_initial_tree(
        out, trace, order, qprof::detail::html::Importance{importance, trace.wall_ns}, budget,
        sibling_order);
    return out.str();
}

}  // namespace qprof::test::html_workload
