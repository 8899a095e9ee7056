// The html reporter tests' program (html_workload.hpp).
#include "html_workload.hpp"

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

}  // namespace qprof::test::html_workload
