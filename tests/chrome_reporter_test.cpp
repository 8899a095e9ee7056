// profile_queries.trace.json: the golden file, exact microseconds, where hits go, and JSON
// escaping of any name or key.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "json.hpp"
#include "test_support.hpp"

namespace {

namespace json = qprof::test::json;

void type_of(int id) {
    PROFILE_QUERY(type_of, id);
    PROFILE_QUERY_HIT(def_span, id);  // first in its parent: at the parent's start
}

void typeck(int id) {
    PROFILE_QUERY(typeck, id);
    type_of(id);
    PROFILE_QUERY_HIT(type_of, id);  // after a sibling: at the sibling's end
    type_of(id + 1);
}

void compile() {
    {
        PROFILE_ACTIVITY_ARG("type checking", "crate root");  // its argument goes in args.arg
        typeck(1);
    }
    std::thread{[] {
        qprof::name_this_thread("codegen worker");
        PROFILE_QUERY_LOAD(mir, 1);
    }}.join();
}

std::string chrome(const qprof::Trace& trace, bool hits, bool keys = false) {
    qprof::ReportOptions options;
    options.chrome_hits = hits;
    options.chrome_keys = keys;
    return qprof::test::report_text("chrome", trace, options);
}

// The events that are not metadata.
std::vector<json::Value> events_of(const std::string& text) {
    const json::Value doc = json::parse(text);
    std::vector<json::Value> events;
    for (const json::Value& event : doc["traceEvents"].items) {
        if (event["ph"].text != "M") {
            events.push_back(event);
        }
    }
    return events;
}

// The trace of a single scope with a clock advancing `step_ns` per read.
qprof::Trace one_scope(std::uint64_t step_ns) {
    return qprof::test::trace_of([] { PROFILE_QUERY(type_of, 0); },
                                 qprof::test::recording_options(), step_ns);
}

}  // namespace

TEST_CASE("trace.json matches the golden file") {
    qprof::test::ManualClock clock;  // every clock read advances 1 ms
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    options.reporters = {"chrome"};
    options.report.chrome_hits = true;
    options.output_dir = dir.path().string();
    options.colours = {{"^mir$", "jit"}};  // cat "load,jit"
    {
        qprof::Session session{options};
        compile();
    }
    const std::string received = qprof::test::read_file(dir.path() / "profile_queries.trace.json");
    CHECK_NOTHROW(json::parse(received));
    qprof::test::check_golden(received, "chrome.approved.json");
}

TEST_CASE("trace.json times are microseconds written exactly from nanoseconds") {
    const std::vector<json::Value> one_ns = events_of(chrome(one_scope(1), false));
    REQUIRE(one_ns.size() == 1);
    CHECK(one_ns[0]["dur"].text == "0.001");
    const std::vector<json::Value> long_step = events_of(chrome(one_scope(1'234'567), false));
    REQUIRE(long_step.size() == 1);
    CHECK(long_step[0]["dur"].text == "1234.567");
    const std::int64_t start_ns = one_scope(1'234'567).threads[0].nodes[0].start;
    CHECK(long_step[0]["ts"].text ==
          std::to_string(start_ns / 1000) + "." + std::to_string(start_ns % 1000 + 1000).substr(1));
    const std::vector<json::Value> ten_ms = events_of(chrome(one_scope(10'000'000), false));
    CHECK(ten_ms[0]["dur"].text == "10000.000");
}

TEST_CASE("trace.json hits: instant events only when asked, placed by their neighbours") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    typeck(1);
    session.finish();
    CHECK(events_of(chrome(session.trace(), false)).size() == 3);  // typeck, type_of twice
    const std::vector<json::Value> events = events_of(chrome(session.trace(), true));
    std::vector<std::string> order;
    order.reserve(events.size());
    for (const json::Value& event : events) {
        order.push_back(event["name"].text + " " + event["ph"].text + " " + event["ts"].text);
    }
    // typeck [1, 10] ms; type_of [2, 3] and [4, 5]; a hit reads no clock.
    CHECK(order == std::vector<std::string>{"typeck X 1000.000", "type_of X 2000.000",
                                            "def_span i 2000.000", "type_of i 3000.000",
                                            "type_of X 4000.000", "def_span i 4000.000"});
    CHECK(events[2]["s"].text == "t");
    CHECK(events[2]["cat"].text == "hit");
}

TEST_CASE("trace.json escapes any name and key") {
#define ODD_NAME "say \"hi\"\\ \x01\t\x1f <ok> \xc3\xa9"  // sites take literal names
    const std::string name = ODD_NAME;
    const std::string key = "line\nbreak \x7f";
    qprof::test::ManualClock clock;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    qprof::Session session{options};
    std::thread{[&] {
        qprof::name_this_thread("thread \"q\"\r");
        PROFILE_QUERY_NAMED(ODD_NAME, key);
    }}.join();
    session.finish();
    const std::string text = chrome(session.trace(), false, true);
    CHECK_THAT(text, Catch::Contains(R"("name":"say \"hi\"\\ \u0001\u0009\u001f \u003cok> é")") &&
                         Catch::Contains(R"("key":"line\u000abreak )") &&
                         Catch::Contains(R"({"name":"thread \"q\"\u000d"})"));
    const std::vector<json::Value> events = events_of(text);
    REQUIRE(events.size() == 1);
    CHECK(events[0]["name"].text == name);
    CHECK(events[0]["args"]["key"].text == key);
}

TEST_CASE("trace.json: each counter value is a counter event on its thread's series") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    qprof::counter("live nodes", 3);
    {
        PROFILE_QUERY(typeck, 1);
        qprof::counter("live nodes", -12);
    }
    std::thread{[] {
        qprof::name_this_thread("codegen worker");
        qprof::counter("live nodes", 40);
    }}.join();
    qprof::record_size("object file", 4096);
    session.finish();
    const std::string text = chrome(session.trace(), false);
    const json::Value doc = json::parse(text);
    std::vector<std::string> counters;
    for (const json::Value& event : events_of(text)) {
        if (event["ph"].text == "C") {
            REQUIRE(event["args"].members.size() == 1);  // one series: the thread's
            const auto& [series, value] = event["args"].members[0];
            counters.push_back(event["name"].text + " " + event["ts"].text + " " +
                               event["tid"].text + " " + series + "=" + value.text);
        }
    }
    REQUIRE(counters.size() == 3);
    const std::int64_t typeck_start = session.trace().threads[0].nodes[0].start;
    const std::string inside = std::to_string(typeck_start / 1000 + 1000) + ".000";
    CHECK(counters[1] == "live nodes " + inside + " 1 main=-12");  // the read after typeck's
    CHECK(counters[0].starts_with("live nodes "));
    CHECK(counters[0].ends_with(" 1 main=3"));
    CHECK(counters[2].ends_with(" 2 codegen worker=40"));
    CHECK(doc["otherData"]["sizes"]["object file"].number == 4096);
}
