// profile_queries.flamegraph.html: the page C++ writes (skeleton, totals, frames payload)
// against a golden file, and what the payload must say. What the viewer draws is checked in
// a real browser by tests/browser/flamegraph.spec.mjs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "test_support.hpp"

namespace {

void type_of(int id) { PROFILE_QUERY(type_of, id); }

void typeck(int id) {
    PROFILE_QUERY(typeck, id);
    type_of(id);
    PROFILE_QUERY_HIT(type_of, id);
    PROFILE_QUERY_HIT(type_of, id + 1);
}

void compile() {
    {
        PROFILE_ACTIVITY("parsing");
        PROFILE_QUERY(parse, 0);
    }
    PROFILE_ACTIVITY("analysis");
    typeck(1);
    typeck(2);
    PROFILE_QUERY_LOAD(mir, 1);
}

// compile() on the main thread, then typeck(3) on a worker; every clock read 1 ms later.
void record_two_threads() {
    compile();
    std::thread{[] {
        qprof::name_this_thread("worker");
        typeck(3);
    }}.join();
}

std::string flamegraph_of(const qprof::Trace& trace) {
    return qprof::test::report_text("flamegraph", trace);
}

qprof::Trace two_thread_trace() { return qprof::test::trace_of(record_two_threads); }

// The items of the payload's array `name` as written: numbers, or strings with their quotes.
std::vector<std::string> json_array(const std::string& page, const std::string& name) {
    const std::string open = "\"" + name + "\":[";
    const std::size_t start = page.find(open);
    REQUIRE(start != std::string::npos);
    std::vector<std::string> items(1);
    bool quoted = false;
    for (std::size_t i = start + open.size(); i < page.size(); ++i) {
        const char c = page[i];
        if (!quoted && (c == ',' || c == ']')) {
            if (c == ']') {
                break;
            }
            items.emplace_back();
            continue;
        }
        items.back() += c;
        if (quoted && c == '\\') {
            items.back() += page[++i];
        } else if (c == '"') {
            quoted = !quoted;
        }
    }
    return items;
}

std::vector<long long> column(const std::string& page, const std::string& name) {
    std::vector<long long> values;
    for (const std::string& item : json_array(page, name)) {
        values.push_back(std::stoll(item));
    }
    return values;
}

}  // namespace

TEST_CASE("profile_queries.flamegraph.html matches the golden file") {
    qprof::test::ManualClock clock;  // every clock read advances 1 ms
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"flamegraph"};
    options.output_dir = dir.path().string();
    options.colours = {{"^typeck$", "checker"}};  // its frames' class column, the legend
    {
        qprof::Session session{options};
        record_two_threads();
        PROFILE_ACTIVITY_ARG("codegen unit", "a.o");  // a frame per argument
        type_of(4);
    }
    const std::string page = qprof::test::read_file(dir.path() / "profile_queries.flamegraph.html");
    qprof::test::check_golden(qprof::test::without_viewer(page), "flamegraph.approved.html");
}

TEST_CASE("the flame graph is self-contained: it loads nothing from elsewhere") {
    const std::string page = flamegraph_of(two_thread_trace());
    CHECK(page.find("<style id=\"qprof-style\"></style>") == std::string::npos);  // embedded
    CHECK(page.find("<script id=\"qprof-viewer\"></script>") == std::string::npos);
    CHECK_THAT(page, Catch::Contains("window.qprofFlame"));
    for (const char* reference : {"http:", "https:", "<link", " src=", "url(", "@import"}) {
        INFO(reference);
        CHECK(page.find(reference) == std::string::npos);
    }
}

TEST_CASE("frames: an all-threads root, one frame per thread, hits counted on the asker") {
    const std::string page = flamegraph_of(two_thread_trace());
    const std::vector<std::string> names = json_array(page, "names");
    const std::vector<std::string> kinds = json_array(page, "kinds");
    const std::vector<long long> parent = column(page, "parent");
    const std::vector<long long> name = column(page, "name");
    const std::vector<long long> kind = column(page, "kind");
    const std::vector<long long> count = column(page, "count");
    const std::vector<long long> total = column(page, "total_ns");
    const std::vector<long long> hits = column(page, "hits");
    REQUIRE(parent.size() == 11);  // root, 2 threads, 6 frames on main, 2 on the worker
    for (const auto* other : {&name, &kind, &count, &total, &hits}) {
        REQUIRE(other->size() == parent.size());
    }
    auto text = [&](std::size_t f, const std::vector<std::string>& table, long long index) {
        INFO("frame " << f);
        REQUIRE(index >= 0);
        REQUIRE(static_cast<std::size_t>(index) < table.size());
        return table[static_cast<std::size_t>(index)];
    };
    CHECK(parent[0] == -1);
    CHECK(text(0, names, name[0]) == "\"all threads\"");
    CHECK(text(0, kinds, kind[0]) == "\"all\"");
    long long threads_total = 0;
    std::map<std::string, long long> hits_by_path;
    for (std::size_t f = 1; f < parent.size(); ++f) {
        CHECK(parent[f] < static_cast<long long>(f));  // parents first
        CHECK(text(f, kinds, kind[f]) != "\"hit\"");   // hits take no time: not frames
        if (parent[f] == 0) {
            CHECK(text(f, kinds, kind[f]) == "\"thread\"");
            threads_total += total[f];
        }
        const auto p = static_cast<std::size_t>(parent[f]);
        hits_by_path[text(p, names, name[p]) + ">" + text(f, names, name[f])] += hits[f];
    }
    CHECK(total[0] == threads_total);  // the full width is both threads' time
    CHECK(hits_by_path["\"analysis\">\"typeck\""] == 4);
    CHECK(hits_by_path["\"worker\">\"typeck\""] == 2);
    CHECK(hits_by_path["\"typeck\">\"type_of\""] == 0);
    CHECK_THAT(page, Catch::Contains("<dd id=\"total-hits\">6 (42.9 %)</dd>"));
}

TEST_CASE("waiting is the outermost waits' time: a wait inside another counts once") {
    // eval (9 ms) waits for a join (7 ms), inside which it joins again (3 ms) and takes a lock
    // (1 ms, inside the inner join); every clock read 1 ms later. Waiting: the outer join.
    const qprof::Trace trace = qprof::test::trace_of([] {
        PROFILE_QUERY(eval, 0);
        PROFILE_WAIT("join workers");
        {
            PROFILE_QUERY(eval, 1);
            PROFILE_WAIT("join workers");
            PROFILE_WAIT("lock");
        }
    });
    const std::string page = flamegraph_of(trace);
    CHECK_THAT(page, Catch::Contains("<dd id=\"total-time\">9.00 ms</dd>"));
    CHECK_THAT(page, Catch::Contains("<dd id=\"total-waiting\">7.00 ms</dd>"));
    CHECK_THAT(page, Catch::Contains("<dd id=\"total-work\">2.00 ms</dd>"));
}

TEST_CASE("odd provider and thread names cannot close the payload's script") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    std::thread{[] {
        qprof::name_this_thread("</SCRIPT> & co");
        PROFILE_QUERY_NAMED("</script><b>&\"'\\\n", 1);
    }}.join();
    session.finish();
    const std::string page = flamegraph_of(session.trace());
    CHECK(page.find("</script><b>") == std::string::npos);
    CHECK(page.find("</SCRIPT> &") == std::string::npos);
    CHECK_THAT(page, Catch::Contains(R"("\u003c/script>\u003cb>&\"'\\\u000a")"));
    CHECK_THAT(page, Catch::Contains(R"("\u003c/SCRIPT> & co")"));
}

TEST_CASE("an empty trace makes a page with only the root") {
    qprof::Session session{qprof::test::recording_options()};
    session.finish();
    const std::string page = flamegraph_of(session.trace());
    CHECK(column(page, "parent") == std::vector<long long>{-1});
    CHECK(column(page, "total_ns") == std::vector<long long>{0});
    // A hit rate of no queries is none, as the HTML report's header says it (rate_text).
    CHECK_THAT(page, Catch::Contains("<dd id=\"total-hits\">0 (\u2013)</dd>"));
}

TEST_CASE("an activity's argument makes its own frames, each naming its activity") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    for (const char* unit : {"cgu.0", "cgu.1", "cgu.0"}) {
        PROFILE_ACTIVITY_ARG("codegen unit", unit);
        type_of(1);
    }
    session.finish();
    const std::string page = flamegraph_of(session.trace());
    const std::vector<std::string> names = json_array(page, "names");
    const std::vector<long long> name = column(page, "name");
    const std::vector<long long> provider = column(page, "provider");
    const std::vector<long long> count = column(page, "count");
    REQUIRE(name.size() == 6);  // root, main, two units, type_of in each
    auto text = [&](long long index) { return names.at(static_cast<std::size_t>(index)); };
    CHECK(text(name[2]) == "\"codegen unit(cgu.0)\"");
    CHECK(count[2] == 2);
    CHECK(text(name[4]) == "\"codegen unit(cgu.1)\"");
    CHECK(text(provider[2]) == "\"codegen unit\"");  // the statistics link and the colour's
    CHECK(text(provider[4]) == "\"codegen unit\"");
    CHECK(provider[1] == name[1]);  // a frame without an argument: its own name
    // A trace without arguments has no provider column.
    CHECK(flamegraph_of(two_thread_trace()).find("\"provider\":[") == std::string::npos);
}
