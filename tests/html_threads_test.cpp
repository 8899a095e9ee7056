// profile_queries.html with many threads: their initial views share the page's budget of
// elements, and the thread selector lists the first and the busiest of them.
#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <thread>

#include "html_payload_layout.hpp"
#include "html_workload.hpp"
#include "test_support.hpp"

using qprof::test::trace_of;
using qprof::test::html_workload::html_of;
using qprof::test::html_workload::type_of;

// A merged build of many processes: the threads' initial views share one budget for the page,
// and a thread past it has no tree in the page (the viewer draws it when it is first shown).
TEST_CASE("the initial views of many threads share one budget for the page") {
    qprof::Trace trace = trace_of([] {
        PROFILE_ACTIVITY("analysis");
        for (int id = 0; id < 3000; ++id) {
            type_of(id);
        }
    });
    const std::string one_thread = html_of(trace);
    const qprof::ThreadTrace thread = trace.threads.at(0);
    for (std::uint32_t t = 1; t < 200; ++t) {
        trace.threads.push_back(thread);
        trace.threads.back().index = t;
    }
    const auto tree_nodes = [](const std::string& page) {
        const std::string trees = page.substr(0, page.find("<section id=\"providers\">"));
        return qprof::test::count_of(trees, "class=\"node ");
    };
    const std::size_t alone = tree_nodes(one_thread);
    const std::string page = html_of(trace);
    const std::size_t trees = qprof::test::count_of(page, "<div class=\"tree\"");
    INFO(alone << " nodes drawn for one thread, " << tree_nodes(page) << " in " << trees
               << " trees for 200");
    CHECK(alone > 1'000);  // about 1,000 elements: some 40 threads' worth of the page's budget
    CHECK(tree_nodes(page) == trees * alone);  // each tree written whole, none roots only
    CHECK(trees > 30);
    CHECK(trees <= 40);
    CHECK_THAT(page, Catch::Contains("id=\"tree-0\"") && !Catch::Contains("id=\"tree-199\""));
}

// Past layout::kThreadOptions threads, the selector lists that many: the first and the busiest,
// in thread order, then says how many more there are (the viewer lists one when it shows it).
TEST_CASE("the thread selector lists the first and the busiest threads, and counts the rest") {
    constexpr int kThreads = 250;
    constexpr int kBusiest = 230;
    const qprof::Trace trace = trace_of([] {
        for (int t = 0; t < kThreads; ++t) {
            std::thread{[t] {
                for (int i = 0; i < (t == kBusiest ? 50 : t % 3 + 1); ++i) {
                    type_of(i);
                }
            }}.join();
        }
    });
    REQUIRE(trace.threads.size() == kThreads);
    const std::string page = html_of(trace);
    const std::string select =
        page.substr(page.find("<select id=\"thread-select\">"),
                    page.find("</select>", page.find("<select id=\"thread-select\">")) -
                        page.find("<select id=\"thread-select\">"));
    CHECK(qprof::test::count_of(select, "<option value=\"") ==
          qprof::detail::html::layout::kThreadOptions + 1);
    CHECK_THAT(select, Catch::Contains("<option value=\"0\">"));  // shown first
    CHECK_THAT(select, Catch::Contains("<option value=\"" + std::to_string(kBusiest) + "\">"));
    CHECK_THAT(select, Catch::Contains("<option value=\"\" disabled>50 more threads"));
    // Thread order: each listed value is greater than the one before.
    const std::regex value{"<option value=\"([0-9]+)\">"};
    int last = -1;
    bool ascending = true;
    for (auto it = std::sregex_iterator(select.begin(), select.end(), value);
         it != std::sregex_iterator(); ++it) {
        ascending = ascending && std::stoi((*it)[1]) > last;
        last = std::stoi((*it)[1]);
    }
    CHECK(ascending);
    // Trees only for listed threads: the busiest has one, an unlisted one (the last, of one
    // event: ties go to the lower index) none.
    CHECK(qprof::test::count_of(page, "<div class=\"tree\"") ==
          qprof::detail::html::layout::kThreadOptions);
    CHECK_THAT(page, Catch::Contains("id=\"tree-" + std::to_string(kBusiest) + "\""));
    CHECK_THAT(page, !Catch::Contains("id=\"tree-249\""));
}
