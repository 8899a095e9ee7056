// profile_queries.html: the page C++ writes (structure, classes, labels, folds, payload) against
// a golden file, and the payload behind it: its columns, pre-order, gaps, counters. The
// initial view's rules are checked in html_initial_view_test.cpp; what the viewer draws in a
// real browser by tests/browser/html.spec.mjs.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "deep_trace.hpp"
#include "html_page_knobs.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "html_payload_stream.hpp"
#include "html_workload.hpp"
#include "test_support.hpp"

using qprof::detail::Preorder;
using qprof::test::element_text;
using qprof::test::trace_of;
using qprof::test::html_workload::compile;
using qprof::test::html_workload::html_of;
using qprof::test::html_workload::type_of;

namespace {

std::vector<std::vector<std::uint64_t>> payload_columns(const std::string& page,
                                                        std::size_t nodes) {
    return qprof::test::payload_stream(page).columns(nodes);
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

TEST_CASE("the header's queries and pass runs add up to the events the run recorded") {
    const qprof::Trace trace = trace_of(compile);
    const std::string page = html_of(trace);
    const auto number = [&](const std::string& id) {
        const std::string open = "<dd id=\"" + id + "\">";
        const std::size_t start = page.find(open);
        REQUIRE(start != std::string::npos);
        std::string digits = page.substr(start + open.size());
        digits = digits.substr(0, digits.find('<'));
        std::erase(digits, ',');
        return std::stoull(digits);
    };
    CHECK(number("total-pass-runs") == 2);  // compile()'s parsing and analysis
    CHECK(number("total-queries") + number("total-pass-runs") == trace.events);
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

TEST_CASE("with keys, a query's label names its key after its provider, shortened") {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    const std::string page = html_of(trace_of(compile, options));
    CHECK_THAT(page, Catch::Contains("<span class=\"name\">typeck(1)</span> \u00b7 "));
    CHECK_THAT(page,
               Catch::Contains("<span class=\"name\">analysis</span> \u00b7 "));  // a pass: none
    using qprof::detail::html::label_key;
    using qprof::detail::html::layout::kLabelKeyChars;
    using qprof::detail::html::layout::kLabelKeyHeadChars;
    static_assert(kLabelKeyChars == 24 && kLabelKeyHeadChars == 6);  // the texts below
    const std::string fits(kLabelKeyChars, 'k');
    CHECK(label_key(fits) == fits);
    // A longer key: its start and its end, where paths under one directory differ.
    CHECK(label_key("/home/build/checkouts/project/src/module3/file200.cc") ==
          "/home/\u2026odule3/file200.cc");
    CHECK(label_key(fits + "!") == "kkkkkk\u2026kkkkkkkkkkkkkkkk!");
    // characters, not bytes: a key of 30 two-byte letters keeps 23 of them
    std::string accents;
    for (int i = 0; i < 30; ++i) {
        accents += "\u00e9";
    }
    CHECK(label_key(accents) ==
          accents.substr(0, 2 * kLabelKeyHeadChars) + "\u2026" +
              accents.substr(0, 2 * (kLabelKeyChars - kLabelKeyHeadChars - 1)));
    CHECK(label_key("a\xff") == "a\ufffd");  // as the payload's JSON gives it to the viewer
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

TEST_CASE("the page is the same made in line or with any of the reporter's threads") {
    // 200,000 nodes: each column is several pieces, more than wait between the two threads
    // when the columns are compressed.
    const qprof::Trace trace = qprof::test::deep_chain_trace(200'000);
    std::vector<std::size_t> columns_sizes;
    for (const std::uint64_t stored_limit :
         {qprof::detail::html::kStoredColumnsBytes, std::uint64_t{0}}) {
        INFO("columns stored up to " << stored_limit << " bytes");
        const qprof::test::StoredColumnsLimit limit{stored_limit};
        const std::vector<std::string> pages = qprof::test::made_with_each_thread_count(
            [&] { return qprof::test::report_text("html", trace); });
        columns_sizes.push_back(
            element_text(pages[0], "<script type=\"application/octet-stream\" id=\"qprof-columns\"")
                .size());
        for (const std::string& page : pages) {
            CHECK(page == pages[0]);
        }
    }
    CHECK(columns_sizes[0] > 1'000'000);  // stored: 4 bytes a node and more, as base64
    CHECK(columns_sizes[1] < columns_sizes[0] * 2 / 3);  // compressed
}
