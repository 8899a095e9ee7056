// profile_queries.counts.txt, byte for byte, from a deterministic trace: providers, activities
// and an activity's rows per argument.
#include <catch2/catch.hpp>

#include "test_support.hpp"

namespace {

int def_span(int id) {
    PROFILE_QUERY(def_span, id);
    return id;
}

int type_of(int id) {
    PROFILE_QUERY(type_of, id);
    if (id > 0) {
        PROFILE_QUERY_HIT(def_span, id);
        return type_of(id - 1) + def_span(id);
    }
    return 0;
}

void compile() {
    {
        PROFILE_ACTIVITY("parsing");
        def_span(0);
    }
    for (const char* unit : {"a.o", "b.o", "a.o"}) {  // rows per argument under the activity's
        PROFILE_ACTIVITY_ARG("codegen unit", unit);
        def_span(1);
    }
    PROFILE_ACTIVITY("type checking");
    for (int i = 0; i < 3; ++i) {
        type_of(2);
        PROFILE_QUERY_HIT(type_of, 2);
    }
}

}  // namespace

TEST_CASE("counts.txt matches the golden file") {
    qprof::test::ManualClock clock;  // every clock read advances 1 ms
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"counts"};
    options.output_dir = dir.path().string();
    {
        qprof::Session session{options};
        compile();
        session.finish();
        REQUIRE(session.written_files() ==
                std::vector<std::string>{(dir.path() / "profile_queries.counts.txt").string()});
    }
    qprof::test::check_golden(qprof::test::read_file(dir.path() / "profile_queries.counts.txt"),
                              "counts.approved.txt");
}

TEST_CASE("counts rows: seconds with 3 decimals, longest first, ties by count then name") {
    qprof::Trace trace;
    auto add = [&](std::string name, std::uint64_t count, std::int64_t total_ns) {
        qprof::ProviderTotals totals;
        totals.provider = std::move(name);
        totals.count = count;
        totals.total_ns = total_ns;
        trace.providers.push_back(totals);
    };
    add("b_fast", 7, 1'499'999);
    add("a_tied", 2, 2'000'000);
    add("slow", 1, 12'345'678'901);
    add("c_tied", 2, 2'000'000);
    add("z_more", 9, 2'000'000);
    CHECK(qprof::test::report_text("counts", trace) ==
          "slow,1,12.346\n"
          "z_more,9,0.002\n"
          "a_tied,2,0.002\n"
          "c_tied,2,0.002\n"
          "b_fast,7,0.001\n");
}
