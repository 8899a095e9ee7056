// Which boxes of profile_queries.html's initial view carry a label, as C++ writes it: every box
// but a hit's dot, important or not, so that a box drawn because it is long says what it is.
// (The viewer's twin, labelOf in texts.js, is checked by tests/browser/tree_checks.mjs.)
#include <catch2/catch.hpp>
#include <regex>
#include <string>

#include "html_workload.hpp"
#include "test_support.hpp"

using qprof::test::trace_of;
using qprof::test::html_workload::compile;
using qprof::test::html_workload::html_of;
using qprof::test::html_workload::initial_tree;
using qprof::test::html_workload::many_items;

namespace {

// What a label reads: "PROVIDER · 4.56 ms · 12.3 %", a wait's "· waiting".
const std::regex kLabelText{"[^<]+ \u00b7 [0-9.]+ (ns|\u00b5s|ms|s) \u00b7 ([0-9.]+|<0\\.1) %"};

std::size_t matches(const std::string& text, const std::regex& pattern) {
    return static_cast<std::size_t>(std::distance(
        std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()));
}

}  // namespace

TEST_CASE("every box but a hit's dot is labelled, important or not") {
    const qprof::Trace trace = trace_of(compile);
    auto trees = [&](std::uint32_t extent, double percent) {
        const std::string page = qprof::test::without_viewer(html_of(trace, {extent, percent}));
        const std::size_t start = page.find("<section id=\"trees\"");
        return page.substr(start, page.find("</section>", start) - start);
    };
    const std::regex important{"class=\"node [^\"]* important"};
    const std::regex box{"<div class=\"node [^\"]*\" data-n=\"\\d+\">"};
    const std::regex labelled_box{
        "<div class=\"node [^\"]*\" data-n=\"\\d+\"><span class=\"label\">"};
    // The name in a span of its own, which a narrow box cuts, the numbers after it.
    const std::regex label{
        "<span class=\"label\"><span class=\"name\">([^<]*)</span>([^<]*)</span>"};
    // -Z profile-queries-important decides which nodes are important: at 100 % only the extent
    // counts, and analysis (9 children) and typeck (14) are wide enough; at 0 %, every timed node.
    for (const auto& [extent, percent, important_nodes] :
         {std::tuple{7u, 100.0, 2u}, std::tuple{20u, 100.0, 0u}, std::tuple{1000u, 0.0, 20u}}) {
        INFO("-Z profile-queries-important=" << extent << "," << percent);
        const std::string tree = trees(extent, percent);
        CHECK(matches(tree, important) == important_nodes);
        // Labelled all the same: the trace's 20 timed nodes, drawn whole; its 8 hits are dots.
        CHECK(matches(tree, box) == 20);
        CHECK(matches(tree, labelled_box) == 20);
        CHECK(matches(tree, label) == 20);
        CHECK(qprof::test::count_of(tree, "<i class=\"node hit ") == 8);
        for (auto it = std::sregex_iterator(tree.begin(), tree.end(), label);
             it != std::sregex_iterator(); ++it) {
            CHECK(std::regex_match((*it)[1].str() + (*it)[2].str(), kLabelText));
        }
    }
}

TEST_CASE("a node opened to its longest children labels each of them, though none is important") {
    const qprof::Trace trace = trace_of(many_items);
    // Items 40..59, the twenty longest, are drawn closed over their type_of runs, the rest in a
    // chip: each of the twenty names itself and its time, so that the slowest item is read, not
    // hovered for.
    const std::string tree = initial_tree(trace, {1000, 50}, 300);
    INFO(tree);
    const std::regex item{"<div class=\"node miss depth-1 [^\"]*\" data-n=\"\\d+\">"};
    const std::regex labelled_item{
        "<div class=\"node miss depth-1 [^\"]*\" data-n=\"\\d+\"><span class=\"label\"><span "
        "class=\"name\">(item_of)</span>([^<]*)</span>"};
    CHECK(matches(tree, std::regex{"class=\"node [^\"]* important"}) == 1);  // the pass only
    CHECK(matches(tree, item) == 20);
    CHECK(matches(tree, labelled_item) == 20);
    for (auto it = std::sregex_iterator(tree.begin(), tree.end(), labelled_item);
         it != std::sregex_iterator(); ++it) {
        CHECK(std::regex_match((*it)[1].str() + (*it)[2].str(), kLabelText));
    }
}
