// profile_queries.html's initial view, as C++ writes it: pieces and folds, the budget of
// elements opened on load, heaviest first, shares, chips, and a chain too deep for recursion.
// Which boxes are labelled: html_labels_test.cpp; many threads on one page: html_threads_test.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <regex>
#include <string>

#include "deep_trace.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "html_workload.hpp"
#include "test_support.hpp"

using qprof::detail::Preorder;
using qprof::detail::html::Importance;
using qprof::detail::html::Piece;
using qprof::detail::html::SiblingOrder;
using qprof::test::trace_of;
using qprof::test::html_workload::compile;
using qprof::test::html_workload::html_of;
using qprof::test::html_workload::initial_tree;
using qprof::test::html_workload::many_items;
using qprof::test::html_workload::type_of;
using qprof::test::html_workload::typeck_wide;

TEST_CASE("pieces: important nodes alone, long runs folded, short runs drawn") {
    const qprof::Trace trace = trace_of(compile);
    const Preorder order{trace.threads.at(0)};
    const Importance important{{6, 100}, trace.wall_ns};
    auto shape = [&](std::uint32_t from, std::uint32_t to) {
        std::string text;
        for (const Piece& piece : qprof::detail::html::pieces(order, important, from, to)) {
            text += piece.fold ? "fold[" + std::to_string(piece.from) + "," +
                                     std::to_string(piece.to) + ") "
                               : std::to_string(piece.from) + " ";
        }
        return text;
    };
    CHECK(shape(0, order.size()) == "0 2 ");            // two roots, each alone: a run of 2 nodes
    CHECK(shape(3, order.end(2)) == "3 fold[18,28) ");  // wide typeck, then 10 small nodes
    CHECK(shape(19, order.end(18)) == "19 20 ");        // typeck(2)'s hit and type_of
}

TEST_CASE("pieces: past a thousand, the remaining siblings are one fold") {
    const qprof::Trace trace = trace_of([] {
        for (int id = 0; id < 1'100; ++id) {
            type_of(id);
        }
    });
    const Preorder order{trace.threads.at(0)};
    const Importance everything{{1, 0}, trace.wall_ns};  // 0 %: every node
    const std::vector<Piece> shown =
        qprof::detail::html::pieces(order, everything, 0, order.size());
    REQUIRE(shown.size() == 1'001);
    CHECK_FALSE(shown[999].fold);
    CHECK(shown[1'000].fold);
    CHECK(shown[1'000].from == 1'000);
    CHECK(shown[1'000].to == 1'100);
}

TEST_CASE("the initial view opens the longest important nodes within its budget") {
    const qprof::Trace trace = trace_of(compile);
    auto tree = [&](std::size_t budget, SiblingOrder sibling_order = SiblingOrder::call) {
        const std::string names =  // a label's name without its span: "<span>typeck · …"
            std::regex_replace(initial_tree(trace, {6, 100}, budget, sibling_order),
                               std::regex{"<span class=\"name\">([^<]*)</span>"}, "$1");
        return std::regex_replace(names, std::regex{" class=\"[^\"]*\""}, "");
    };
    // Roots are opened a level even past the budget; typeck, important, stays closed.
    CHECK(tree(3) ==
          "<div data-n=\"0\"><span>parsing \u00b7 3.00 ms \u00b7 7.3 %</span><div "
          "data-n=\"1\"><span>parse \u00b7 1.00 ms \u00b7 2.4 %</span></div></div><div "
          "data-n=\"2\"><span>analysis "
          "\u00b7 35.00 ms \u00b7 85.4 %</span><div data-n=\"3\"><span>typeck \u00b7 15.00 ms "
          "\u00b7 36.6 %</span><span "
          "data-from=\"4\" data-to=\"18\">+14 queries \u00b7 17.1 % \u00b7 type_of</span></div>"
          "<span data-from=\"18\" data-to=\"28\">+10 queries \u00b7 24.4 % \u00b7 mostly "
          "type_of</span></div>");
    // With room, typeck opens to its longest children, though none of them is important.
    CHECK_THAT(tree(55), Catch::Contains("<div data-n=\"16\"><span>type_of \u00b7 "));
    // A trace of at most half the budget is drawn whole: no fold at all.
    CHECK(tree(56).find("data-from") == std::string::npos);
    CHECK_THAT(tree(56), Catch::Contains("data-n=\"27\""));  // the last node too
    // Heaviest first: the same pieces, the longest first: analysis (35 ms) before parsing
    // (3 ms); inside it typeck (15 ms) before the fold of the ten others (10 ms).
    CHECK(tree(3, SiblingOrder::heaviest) ==
          "<div data-n=\"2\"><span>analysis \u00b7 35.00 ms \u00b7 85.4 %</span><div "
          "data-n=\"3\"><span>typeck \u00b7 15.00 ms \u00b7 36.6 %</span><span data-from=\"4\" "
          "data-to=\"18\">+14 queries \u00b7 17.1 % \u00b7 type_of</span></div><span "
          "data-from=\"18\" data-to=\"28\">+10 queries \u00b7 24.4 % \u00b7 mostly "
          "type_of</span></div><div data-n=\"0\"><span>parsing \u00b7 3.00 ms \u00b7 7.3 "
          "%</span><div data-n=\"1\"><span>parse \u00b7 1.00 ms \u00b7 2.4 %</span></div></div>");
}

// A pass that mostly waits for its workers, as toyc's code generation does: by duration it
// is the longest, by work the shorter one. Its workers are not recorded, so the wait is
// longer than all the work: a share of it would pass 100 %.
void codegen_and_wait() {
    {
        PROFILE_ACTIVITY("analysis");  // 7 ms, all work
        for (int id = 0; id < 3; ++id) {
            type_of(id);
        }
    }
    PROFILE_ACTIVITY("code generation");  // 23 ms, of which 17 ms waiting
    {
        PROFILE_WAIT("join workers");  // 17 ms: the longest child, and no work at all
        for (int worker = 0; worker < 8; ++worker) {
            PROFILE_WAIT("join worker");
        }
    }
    PROFILE_QUERY(codegen, 0);  // 3 ms of work
    type_of(9);
}

TEST_CASE("heaviest first ranks siblings by their work, and waits after all work") {
    const std::string tree =
        initial_tree(trace_of(codegen_and_wait), {1, 0}, 100, SiblingOrder::heaviest);
    std::vector<std::string> labels;
    const std::regex label{"<span class=\"label\"><span class=\"name\">([^<]*)</span>"};
    for (auto it = std::sregex_iterator(tree.begin(), tree.end(), label);
         it != std::sregex_iterator(); ++it) {
        labels.push_back((*it)[1].str());
    }
    // analysis (7 ms of work) before code generation (23 ms, 6 ms of work); inside code
    // generation, codegen (3 ms) before the 17 ms wait.
    REQUIRE(labels.size() >= 5);
    CHECK(labels[0] == "analysis");
    CHECK(std::find(labels.begin(), labels.end(), "code generation") <
          std::find(labels.begin(), labels.end(), "codegen"));
    CHECK(std::find(labels.begin(), labels.end(), "codegen") <
          std::find(labels.begin(), labels.end(), "join workers"));
}

TEST_CASE("every share is of work over the busy time: none passes 100 %, a wait has none") {
    const std::string page = html_of(trace_of(codegen_and_wait), qprof::ReportOptions{1, 0});
    // Busy: 7 ms of analysis and 6 ms of code generation's own work; the 17 ms wait is not,
    // and a share of it would be 131 %.
    CHECK_THAT(page, Catch::Contains("<strong>13.00 ms</strong> busy time on 1 thread"));
    CHECK_THAT(page, Catch::Contains("join workers</span> \u00b7 17.00 ms \u00b7 waiting</span>"));
    CHECK_THAT(page,
               Catch::Contains("code generation</span> \u00b7 23.00 ms \u00b7 46.2 %</span>"));
    CHECK_THAT(page, Catch::Contains("<span class=\"time\">17.0 ms</span> <span "
                                     "class=\"share\">waiting</span>"));
    const std::string markup = page.substr(0, page.find("<script"));
    const std::regex share{"(\\d+\\.\\d) %"};
    for (auto it = std::sregex_iterator(markup.begin(), markup.end(), share);
         it != std::sregex_iterator(); ++it) {
        CHECK(std::stod((*it)[1].str()) <= 100.0);
    }
}

// A wide pass: ten important typeck runs, each followed by six small type_of runs.
void wide_pass() {
    PROFILE_ACTIVITY("type checking");
    for (int i = 0; i < 10; ++i) {
        typeck_wide();
        for (int id = 20; id < 26; ++id) {
            type_of(id);
        }
    }
}

// A wide pass's tree within 100 elements, without the nodes' classes.
std::string wide_pass_tree(const qprof::Trace& trace) {
    return std::regex_replace(initial_tree(trace, {6, 100}, 100),
                              std::regex{" class=\"node[^\"]*\""}, "");
}

// The first chip of a tree: its data-from, data-to and text, and where its markup ends.
struct FoundChip {
    std::string from;
    std::string to;
    std::string text;
    std::size_t end = 0;
};
std::optional<FoundChip> first_chip(const std::string& tree) {
    static const std::regex chip{
        "<span class=\"fold\" data-from=\"(\\d+)\" data-to=\"(\\d+)\" "
        "data-provider=\"\\d+\">([^<]*)</span>"};
    std::smatch found;
    if (!std::regex_search(tree, found, chip)) {
        return std::nullopt;
    }
    return FoundChip{found[1].str(), found[2].str(), found[3].str(),
                     static_cast<std::size_t>(found.position(0) + found.length(0))};
}

TEST_CASE("the folds of a sibling list are merged into one chip per provider") {
    const qprof::Trace trace = trace_of(wide_pass);
    const Preorder order{trace.threads.at(0)};
    const std::string tree = wide_pass_tree(trace);
    INFO(tree);
    // Ten folds of six type_of runs between the typeck runs: one chip, after them.
    const std::optional<FoundChip> chip = first_chip(tree);
    REQUIRE(chip);
    CHECK(chip->text == "\u22ef 60 type_of runs \u00b7 60.00 ms");
    CHECK(chip->from == std::to_string(order.end(1)));  // after the first typeck
    CHECK(chip->to == std::to_string(order.size()));
    CHECK(tree.find("data-provider", chip->end) == std::string::npos);
    // The typeck runs are drawn; no fold of the pass's is left between them.
    CHECK_FALSE(std::regex_search(tree, std::regex{"</div><span class=\"fold\" data-from=\"\\d+\" "
                                                   "data-to=\"\\d+\">"}));
}

// The same pass with fewer type_of runs after every other typeck: two, too few to fold.
void wide_pass_with_short_runs() {
    PROFILE_ACTIVITY("type checking");
    for (int i = 0; i < 10; ++i) {
        typeck_wide();
        for (int id = 20; id < (i % 2 == 0 ? 26 : 22); ++id) {
            type_of(id);
        }
    }
}

TEST_CASE("the short runs between a list's folds go into its chips, not into boxes beside them") {
    const qprof::Trace trace = trace_of(wide_pass_with_short_runs);
    const Preorder order{trace.threads.at(0)};
    const std::string tree = wide_pass_tree(trace);
    INFO(tree);
    // Five folds of six type_of runs and five runs of two: one chip of all forty.
    const std::optional<FoundChip> chip = first_chip(tree);
    REQUIRE(chip);
    CHECK(chip->text == "\u22ef 40 type_of runs \u00b7 40.00 ms");
    CHECK(chip->from == std::to_string(order.end(1)));
    CHECK(chip->to == std::to_string(order.size()));
    CHECK(tree.find("data-provider", chip->end) == std::string::npos);
    // Beside the chip, the pass's boxes are its ten typeck runs (opened on their children).
    const std::regex box{"<div data-n=\"(\\d+)\">"};
    std::size_t pass_boxes = 0;
    for (auto it = std::sregex_iterator(tree.begin(), tree.end(), box);
         it != std::sregex_iterator(); ++it) {
        const auto n = static_cast<std::uint32_t>(std::stoul((*it)[1].str()));
        if (order.depth(n) == 1) {
            ++pass_boxes;
            CHECK(order.end(n) - n == 15);  // typeck_wide: itself and 14 nodes below
        }
    }
    CHECK(pass_boxes == 10);
}

// check_crate asks typeck with 6, 7, ... 25 sub-queries: all important, each longer.
void check_crate() {
    PROFILE_QUERY(check_crate, 0);
    for (int width = 6; width <= 25; ++width) {
        PROFILE_QUERY(typeck, width);
        for (int id = 0; id < width; ++id) {
            type_of(id);
        }
    }
}

TEST_CASE("a node whose children do not fit shows its longest ones, the rest folded") {
    const qprof::Trace trace = trace_of(check_crate);
    const Preorder order{trace.threads.at(0)};
    const std::string tree = initial_tree(trace, {6, 100}, 12);
    // One fold for typeck 6..21 before the four longest, 22..25, each closed over its fold.
    const std::regex typeck{"<span class=\"label\"><span class=\"name\">typeck"};
    CHECK(std::distance(std::sregex_iterator(tree.begin(), tree.end(), typeck),
                        std::sregex_iterator()) == 4);
    CHECK_THAT(tree,
               Catch::Contains("<span class=\"fold\" data-from=\"1\" data-to=\"" +
                               std::to_string(order.size() - (22 + 23 + 24 + 25 + 4)) + "\">+"));
}

TEST_CASE("a node opened to its longest children shows twenty of them at most") {
    const qprof::Trace trace = trace_of(many_items);
    const Preorder order{trace.threads.at(0)};
    // Room for all sixty closed items (two elements each), but only the twenty longest,
    // items 40..59, are drawn: more would tell nothing the chip does not.
    const std::string tree = std::regex_replace(initial_tree(trace, {1000, 50}, 300),
                                                std::regex{" class=\"node[^\"]*\""}, "");
    INFO(tree);
    std::vector<std::uint32_t> items;
    const std::regex box{"<div data-n=\"(\\d+)\">"};
    for (auto it = std::sregex_iterator(tree.begin(), tree.end(), box);
         it != std::sregex_iterator(); ++it) {
        const auto n = static_cast<std::uint32_t>(std::stoul((*it)[1].str()));
        if (order.depth(n) == 1) {
            items.push_back(n);
        }
    }
    REQUIRE(items.size() == 20);
    for (const std::uint32_t n : items) {
        CHECK(order.end(n) - n - 1 >= 40);  // item 40 or later: 40 type_of runs or more
    }
}

TEST_CASE("a fold names the provider that takes its time") {
    const qprof::Trace trace = trace_of(compile);
    const Preorder order{trace.threads.at(0)};
    const qprof::detail::html::Work work{order};
    auto text = [&](std::uint32_t from, std::uint32_t to) {
        return qprof::detail::html::fold_text(trace, order, work, from, to, trace.wall_ns);
    };
    CHECK(text(0, order.size()) == "+28 queries \u00b7 92.7 % \u00b7 mostly analysis");
    CHECK(text(18, 21) == "+3 queries \u00b7 7.3 % \u00b7 typeck");  // one provider only
    CHECK(text(5, 6) == "+1 query \u00b7 <0.1 % \u00b7 type_of");    // a hit: counted, not timed
}

TEST_CASE("a chain 100,000 deep is written without recursion, flattened into rows") {
    const std::string page =
        qprof::test::without_viewer(html_of(qprof::test::deep_chain_trace(100'000)));
    int nesting = 0;
    int deepest = 0;
    // The nesting of the tree's boxes: every "<div class=\"node" opens, every "</div>" closes.
    for (std::size_t at = 0; at < page.size(); ++at) {
        if (page.compare(at, 17, "<div class=\"node ") == 0) {
            deepest = std::max(deepest, ++nesting);
        } else if (page.compare(at, 6, "</div>") == 0 && nesting > 0) {
            --nesting;
        }
    }
    using qprof::detail::html::kDeepDepth;
    CHECK(deepest == static_cast<int>(kDeepDepth) + 1);  // boxes down to depth 31, then a row
    // A row holds only its label; its child is the next row, not inside it.
    CHECK_THAT(page,
               Catch::Contains(" deep\" data-n=\"40\" data-depth=\"40\"><span class=\"label\">"));
    CHECK_THAT(page, Catch::Contains("</span></div><div class=\"node miss depth-41 "));
    // The initial budget opens the chain far below what nested boxes allowed (256).
    CHECK_THAT(page, Catch::Contains(" data-n=\"1000\" data-depth=\"1000\">"));
    CHECK_THAT(page, Catch::Contains("{\"name\":\"main\",\"nodes\":100000,"));  // all of it
}
