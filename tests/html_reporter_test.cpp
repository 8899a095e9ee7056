// profile_queries.html: the page C++ writes (structure, classes, labels, folds, payload) against
// a golden file, and the rules behind it. What the viewer draws is checked in a real browser
// by tests/browser/html.spec.mjs.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "deep_trace.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "test_support.hpp"

namespace {

using qprof::detail::Preorder;
using qprof::detail::html::Importance;
using qprof::detail::html::Piece;
using qprof::detail::html::SiblingOrder;

void type_of(int id) { PROFILE_QUERY(type_of, id); }

// Seven sub-queries: important by extent whatever its time.
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

using qprof::test::trace_of;

std::string html_of(const qprof::Trace& trace, const qprof::ReportOptions& options = {}) {
    return qprof::test::report_text("html", trace, options);
}

// The initial view of thread 0's tree, within `budget` elements, with nodes important as
// `importance` says.
std::string initial_tree(const qprof::Trace& trace, const qprof::ReportOptions& importance,
                         std::size_t budget, SiblingOrder sibling_order = SiblingOrder::call) {
    const Preorder order{trace.threads.at(0)};
    std::ostringstream out;
    qprof::detail::html::write_initial_tree(
        out, trace, order, Importance{importance, trace.wall_ns}, budget, sibling_order);
    return out.str();
}

// The text of the page's element that starts with `open`.
std::string element_text(const std::string& page, const std::string& open) {
    const std::size_t start = page.find(open);
    REQUIRE(start != std::string::npos);
    const std::size_t text = page.find('>', start) + 1;
    return page.substr(text, page.find("</script>", text) - text);
}

// The payload's columns as Python's zlib decompresses them, each LEB128 varint as a number
// (the key column's zigzag differences summed back).
std::vector<std::vector<std::uint64_t>> payload_columns(const std::string& page,
                                                        std::size_t nodes) {
    const std::string bytes = qprof::test::decompress_with_python(
        element_text(page, "<script type=\"application/octet-stream\" id=\"qprof-columns\">"),
        "base64-zlib");
    std::vector<std::vector<std::uint64_t>> columns;
    std::size_t at = 0;
    while (at < bytes.size()) {
        auto& column = columns.emplace_back();
        for (std::size_t n = 0; n < nodes; ++n) {
            std::uint64_t value = 0;
            for (int shift = 0;; shift += 7) {
                const auto byte = static_cast<unsigned char>(bytes.at(at++));
                value |= std::uint64_t{byte & 0x7fu} << shift;
                if (byte < 0x80) {
                    break;
                }
            }
            column.push_back(value);
        }
    }
    return columns;
}

}  // namespace

TEST_CASE("profile_queries.html matches the golden file") {
    qprof::test::ManualClock clock;  // every clock read advances 1 ms
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"html"};
    options.output_dir = dir.path().string();
    options.report.important_percent = 10;
    options.colours = {{"^typeck$", "checker"}, {"^parsing$", "front"}};  // a legend, colours
    {
        qprof::Session session{options};
        compile();
        PROFILE_ACTIVITY_ARG("codegen unit", "a.o");  // its label, details and statistics
        type_of(20);
    }
    const std::string page = qprof::test::read_file(dir.path() / "profile_queries.html");
    CHECK_THAT(page, Catch::Contains("<dd id=\"program\">html_reporter_test (pid " +
                                     std::to_string(::getpid()) + ")</dd>"));
    // The process id changes from run to run; the golden file holds PID.
    const std::string stable = std::regex_replace(qprof::test::without_viewer(page),
                                                  std::regex{"\\(pid [0-9]+\\)"}, "(pid PID)");
    qprof::test::check_golden(stable, "html.approved.html");
}

TEST_CASE("the payload's columns read back through zlib as the trace in pre-order") {
    const std::string page = html_of(trace_of(compile), {6, 10});
    CHECK_THAT(page, Catch::Contains("\"threads\":[{\"name\":\"main\",\"nodes\":28,\"bytes\":{"
                                     "\"tag\":51,\"size\":28,\"dur\":72,\"gap\":68},"
                                     "\"cpu\":[[0,1000000],[2,17000000]]}]"));  // the activities'
    const auto columns = payload_columns(page, 28);
    REQUIRE(columns.size() == 4);  // the gap column: the next test
    using Column = std::vector<std::uint64_t>;
    // tag = provider << 5 | important << 4 | unfinished << 3 | outcome (html_payload_layout.hpp)
    CHECK(columns[0] == Column{4,   32,  84,  112, 128, 129, 128, 129, 128, 129,
                               128, 129, 128, 129, 128, 129, 128, 129, 96,  129,
                               128, 128, 128, 128, 128, 128, 128, 163});
    CHECK(columns[1] == Column{2, 1, 26, 15, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                               1, 1, 1,  1,  3, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    Column dur(28, 1'000'000);
    dur[0] = dur[18] = 3'000'000;
    dur[2] = 35'000'000;
    dur[3] = 15'000'000;
    for (const std::size_t hit : {5, 7, 9, 11, 13, 15, 17, 19}) {
        dur[hit] = 0;
    }
    CHECK(columns[2] == dur);
}

TEST_CASE("the payload's outcome names are outcome_name's, code for code") {
    namespace layout = qprof::detail::html::layout;
    for (std::size_t code = 0; code < layout::kOutcomeNames.size(); ++code) {
        CHECK(layout::kOutcomeNames[code] ==
              qprof::outcome_name(static_cast<qprof::Outcome>(code)));
    }
    CHECK(static_cast<std::size_t>(qprof::Outcome::activity) + 1 == layout::kOutcomeNames.size());
    CHECK(layout::kOutcomeNames.size() - 1 <= layout::kOutcomeMask);  // every code fits the tag
}

TEST_CASE("with keys, the payload has a key column of differences") {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    const qprof::Trace trace = trace_of(compile, options);
    const std::string page = html_of(trace);
    const auto columns = payload_columns(page, 28);
    REQUIRE(columns.size() == 5);
    const Preorder order{trace.threads.at(0)};
    std::int64_t key = 0;
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        const std::uint64_t zigzag = columns[4][n];
        key += (zigzag & 1) != 0 ? -static_cast<std::int64_t>((zigzag + 1) / 2)
                                 : static_cast<std::int64_t>(zigzag / 2);
        INFO(n);
        CHECK(key == static_cast<std::int64_t>(order.thread().keys[order.post_index(n)]));
    }
}

TEST_CASE("the page is self-contained: it loads nothing from elsewhere") {
    const qprof::Trace trace = trace_of(compile);
    const std::string page = html_of(trace);
    CHECK(page.find("<style id=\"qprof-style\"></style>") == std::string::npos);  // embedded
    CHECK(page.find("<script id=\"qprof-viewer\"></script>") == std::string::npos);
    for (const char* reference : {"http:", "https:", "<link", " src=", "url(", "@import"}) {
        INFO(reference);
        CHECK(page.find(reference) == std::string::npos);
    }
}

TEST_CASE("provider names are escaped in the markup and cannot close the payload's script") {
    const std::string page = html_of(trace_of([] { PROFILE_QUERY_NAMED("</script><b>&\"'", 1); }));
    CHECK(page.find("</script><b>") == std::string::npos);
    CHECK_THAT(page, Catch::Contains("&lt;/script&gt;&lt;b&gt;&amp;&quot;&#39;"));
    CHECK_THAT(page, Catch::Contains(R"("\u003c/script>\u003cb>&\"'")"));
}

TEST_CASE("-Z profile-queries-important decides which nodes are labelled") {
    const qprof::Trace trace = trace_of(compile);
    auto labels = [&](std::uint32_t extent, double percent) {
        const std::string page = qprof::test::without_viewer(html_of(trace, {extent, percent}));
        const std::regex label{"<span class=\"label\">([^<]*)</span>"};
        std::vector<std::string> found;
        for (auto it = std::sregex_iterator(page.begin(), page.end(), label);
             it != std::sregex_iterator(); ++it) {
            found.push_back((*it)[1]);
        }
        return found;
    };
    // 100 %: only the extent counts; analysis (9 children) and typeck (14) are wide enough.
    CHECK(labels(7, 100).size() == 2);
    CHECK(labels(20, 100).empty());
    // 0 %: every node that is not a hit.
    CHECK(labels(1000, 0).size() == 20);
}

TEST_CASE("pre-order: subtrees are contiguous, depths and parents follow the tree") {
    const qprof::Trace trace = trace_of(compile);
    const Preorder order{trace.threads.at(0)};
    std::string names;
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        names += std::string(order.depth(n), '.') + trace.sites[order.node(n).site].provider + ' ';
    }
    CHECK(names ==
          "parsing .parse analysis .typeck ..type_of ..type_of ..type_of ..type_of ..type_of "
          "..type_of ..type_of ..type_of ..type_of ..type_of ..type_of ..type_of ..type_of "
          "..type_of .typeck ..type_of ..type_of .type_of .type_of .type_of .type_of .type_of "
          ".type_of .mir ");
    CHECK(order.end(0) == 2);                // parsing holds parse
    CHECK(order.end(2) == order.size());     // analysis holds the rest
    CHECK(order.parent(3) == 2);             // typeck's parent is analysis
    CHECK(order.parent(0) == order.size());  // a root has none
    CHECK(order.node(order.size() - 1).outcome == qprof::Outcome::load);
}

TEST_CASE("the payload's gaps give back where every node started, for the timeline") {
    const qprof::Trace trace = trace_of(compile);
    const std::string page = html_of(trace);
    const Preorder order{trace.threads.at(0)};
    const auto columns = payload_columns(page, order.size());
    REQUIRE(columns.size() == 4);
    const std::vector<std::uint64_t>& gaps = columns[3];  // tag, size, dur, gap
    // The rule of docs/html-report.md: a node starts `gap` after its cursor, which is its
    // parent's start, or the end of its last timed sibling; a hit sits at the cursor.
    std::vector<double> cursor(std::size_t{order.size()} + 1);
    int idle_gaps = 0;
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        const auto gap = static_cast<double>(gaps[n]);
        double& at = cursor[order.parent(n)];
        const double start = at + gap;
        cursor[n] = start;
        INFO("node " << n);
        if (order.node(n).outcome == qprof::Outcome::hit) {
            CHECK(gap == 0);
            continue;
        }
        CHECK(start == static_cast<double>(order.node(n).start));
        CHECK(columns[2][n] == static_cast<std::uint64_t>(order.duration_ns(n)));
        at = start + static_cast<double>(columns[2][n]);
        idle_gaps += gap > 0;
    }
    // Every clock read is 1 ms after the one before, so every timed node has a gap.
    CHECK(idle_gaps ==
          static_cast<int>(std::count_if(
              trace.threads[0].nodes.begin(), trace.threads[0].nodes.end(),
              [](const qprof::Node& node) { return node.outcome != qprof::Outcome::hit; })));
}

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
        return std::regex_replace(initial_tree(trace, {6, 100}, budget, sibling_order),
                                  std::regex{" class=\"[^\"]*\""}, "");
    };
    // Roots are opened a level even past the budget; typeck, important, stays closed.
    CHECK(tree(3) ==
          "<div data-n=\"0\"><div data-n=\"1\"></div></div><div data-n=\"2\"><span>analysis "
          "\u00b7 35.00 ms \u00b7 85.4 %</span><div data-n=\"3\"><span>typeck \u00b7 15.00 ms "
          "\u00b7 36.6 %</span><span "
          "data-from=\"4\" data-to=\"18\">+14 queries \u00b7 17.1 % \u00b7 type_of</span></div>"
          "<span data-from=\"18\" data-to=\"28\">+10 queries \u00b7 24.4 % \u00b7 mostly "
          "type_of</span></div>");
    // With room, typeck opens to its longest children, though none of them is important.
    CHECK_THAT(tree(55), Catch::Contains("<div data-n=\"16\"></div>"));
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
          "type_of</span></div><div data-n=\"0\"><div data-n=\"1\"></div></div>");
}

// A merged build of many processes: each thread's initial view stays within its budget, and
// the page's within about ten threads' worth; the later threads' trees open their roots only.
TEST_CASE("the initial views of many threads share one budget for the page") {
    qprof::Trace trace = trace_of([] {
        PROFILE_ACTIVITY("analysis");
        for (int id = 0; id < 3000; ++id) {
            type_of(id);
        }
    });
    const std::string one_thread = html_of(trace);
    const qprof::ThreadTrace thread = trace.threads.at(0);
    for (std::uint32_t t = 1; t < 100; ++t) {
        trace.threads.push_back(thread);
        trace.threads.back().index = t;
    }
    const auto tree_nodes = [](const std::string& page) {
        const std::string trees = page.substr(0, page.find("<section id=\"providers\">"));
        return qprof::test::count_of(trees, "class=\"node ");
    };
    const std::size_t alone = tree_nodes(one_thread);
    const std::string page = html_of(trace);
    INFO(alone << " nodes drawn for one thread, " << tree_nodes(page) << " for 100");
    CHECK(alone > 1'000);  // as large as a thread gets: 40 threads would pass the page's budget
    CHECK(tree_nodes(page) <= 40'000 + alone + 100 * 2);
    CHECK(qprof::test::count_of(page, "<div class=\"tree\"") == 100);
    CHECK_THAT(page, Catch::Contains("id=\"tree-99\"") && Catch::Contains("+3,000 queries"));
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
    const std::regex label{"<span class=\"label\">([^<]*)</span>"};
    for (auto it = std::sregex_iterator(tree.begin(), tree.end(), label);
         it != std::sregex_iterator(); ++it) {
        labels.push_back((*it)[1].str().substr(0, (*it)[1].str().find(" \u00b7")));
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
    CHECK_THAT(page, Catch::Contains("<strong>13.00 ms</strong> busy on 1 thread"));
    CHECK_THAT(page, Catch::Contains("join workers \u00b7 17.00 ms \u00b7 waiting</span>"));
    CHECK_THAT(page, Catch::Contains("code generation \u00b7 23.00 ms \u00b7 46.2 %</span>"));
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

TEST_CASE("the folds of a sibling list are merged into one chip per provider") {
    const qprof::Trace trace = trace_of(wide_pass);
    const Preorder order{trace.threads.at(0)};
    const std::string tree = std::regex_replace(initial_tree(trace, {6, 100}, 100),
                                                std::regex{" class=\"node[^\"]*\""}, "");
    INFO(tree);
    // Ten folds of six type_of runs between the typeck runs: one chip, after them.
    const std::regex chip{
        "<span class=\"fold\" data-from=\"(\\d+)\" data-to=\"(\\d+)\" "
        "data-provider=\"\\d+\">([^<]*)</span>"};
    std::smatch found;
    REQUIRE(std::regex_search(tree, found, chip));
    CHECK(found[3].str() == "\u22ef 60 type_of runs \u00b7 60.00 ms");
    CHECK(found[1].str() == std::to_string(order.end(1)));  // after the first typeck
    CHECK(found[2].str() == std::to_string(order.size()));
    const auto after = static_cast<std::size_t>(found.position(0) + found.length(0));
    CHECK(tree.find("data-provider", after) == std::string::npos);
    // The typeck runs are drawn; no fold of the pass's is left between them.
    CHECK_FALSE(std::regex_search(tree, std::regex{"</div><span class=\"fold\" data-from=\"\\d+\" "
                                                   "data-to=\"\\d+\">"}));
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
    const std::regex typeck{"<span class=\"label\">typeck"};
    CHECK(std::distance(std::sregex_iterator(tree.begin(), tree.end(), typeck),
                        std::sregex_iterator()) == 4);
    CHECK_THAT(tree,
               Catch::Contains("<span class=\"fold\" data-from=\"1\" data-to=\"" +
                               std::to_string(order.size() - (22 + 23 + 24 + 25 + 4)) + "\">+"));
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

TEST_CASE("sizes and counters: a table each, and each thread's counter values in the payload") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    qprof::record_size("object <file>", 4'096);
    qprof::record_size("object <file>", 1'000);
    {
        PROFILE_QUERY(typeck, 1);
        qprof::counter("live nodes", 12);
        qprof::counter("live nodes", -3);
    }
    session.finish();
    const qprof::Trace& trace = session.trace();
    const std::string page = html_of(trace);
    CHECK_THAT(page, Catch::Contains("<tr><td>object &lt;file&gt;</td><td class=\"num\">5,096</td>"
                                     "<td class=\"num\">2</td><td class=\"num\">2,548</td></tr>"));
    CHECK_THAT(page, Catch::Contains("<tr><td>live nodes</td><td class=\"num\">2</td>"
                                     "<td class=\"num\">-3</td><td class=\"num\">12</td></tr>"));
    const std::vector<qprof::CounterSample>& samples = trace.threads.at(0).counters.at(0).samples;
    CHECK_THAT(page, Catch::Contains("\n\"counters\":[\"live nodes\"]"));
    CHECK_THAT(page, Catch::Contains(",\"counters\":[{\"counter\":0,\"samples\":2,\"time\":[" +
                                     std::to_string(samples[0].time_ns) + "," +
                                     std::to_string(samples[1].time_ns) + "],\"value\":[12,-3]}]"));
    CHECK_THAT(html_of(trace_of(compile)), !Catch::Contains("id=\"measures\""));
}

TEST_CASE("a long counter series is drawn from its envelope: every peak, about 4,000 values") {
    // Evenly spaced samples: on a loaded machine real clock reads bunch up where the thread
    // ran, and the envelope (buckets of time) would keep fewer values.
    qprof::test::ManualClock clock;  // every clock read advances 1 ms
    qprof::Session session{qprof::test::recording_options()};
    for (int i = 0; i < 50'000; ++i) {
        qprof::counter("wave", i == 31'337 ? 1'000'000 : i == 7 ? -1'000'000 : i % 100);
    }
    session.finish();
    const std::string page = html_of(session.trace());
    const std::size_t values = page.find(",\"value\":[");
    REQUIRE(values != std::string::npos);
    const std::string drawn = page.substr(values, page.find(']', values) - values);
    const std::size_t count = qprof::test::count_of(drawn, ",");
    CHECK(count <= 4'000);
    CHECK(count >= 1'000);
    CHECK_THAT(drawn, Catch::Contains(",1000000") && Catch::Contains("-1000000"));
    CHECK_THAT(page, Catch::Contains("\"samples\":50000"));
}
