// -Z profile-queries-events: what a session leaves out is never recorded, what it asked is
// its caller's, and every report states what was left out.
#include <catch2/catch.hpp>
#include <qprof/query.hpp>

#include "test_support.hpp"

using qprof::EventSelection;
using qprof::SessionOptions;
using qprof::Trace;
using qprof::test::tree_text;

namespace {

void inner() { PROFILE_QUERY(inner); }

// middle asks inner; after it, outer asks sibling, which asks nothing: were middle's depth
// kept without its record, sibling would adopt middle's inner.
void outer() {
    PROFILE_QUERY(outer);
    {
        PROFILE_QUERY(middle);
        inner();
        PROFILE_QUERY_HIT(inner);
    }
    { PROFILE_QUERY(sibling); }
    PROFILE_WAIT("join");
}

void compile() {
    PROFILE_ACTIVITY("parsing");
    outer();
}

Trace recorded(const EventSelection& events, bool keys = false) {
    qprof::test::ManualClock clock;
    SessionOptions options = qprof::test::recording_options();
    options.events = events;
    options.record_keys = keys;
    qprof::Session session{options};
    compile();
    session.finish();
    return session.trace();
}

// The reports a trace makes, each cut to what states the selection, one after the other.
std::string statements(const Trace& trace) {
    std::string text;
    auto line_with = [](const std::string& report, const std::string& part) {
        const std::size_t at = report.find(part);
        if (at == std::string::npos) {
            return "<no '" + part + "'>\n";
        }
        const std::size_t start = report.rfind('\n', at) + 1;
        return report.substr(start, report.find('\n', at) - start + 1);
    };
    for (const std::string reporter : {"counts", "folded"}) {
        text += reporter + ": " + line_with(qprof::test::report_text(reporter, trace), "#");
    }
    text += "keys: " + line_with(qprof::test::report_text("keys", trace), "not recorded");
    text += "chrome: " + line_with(qprof::test::report_text("chrome", trace), "otherData");
    const std::string html = qprof::test::report_text("html", trace);
    text += "html: " + line_with(html, "total-hits");
    text += "html: " + line_with(html, "not-recorded");
    text += "html: " + line_with(html, "<a href=\"#\">inner</a>");
    const std::string flamegraph = qprof::test::report_text("flamegraph", trace);
    text += "flamegraph: " + line_with(flamegraph, "total-hits");
    text += "flamegraph: " + line_with(flamegraph, "not-recorded");
    return text;
}

}  // namespace

TEST_CASE("by default every kind of every provider is recorded") {
    const Trace trace = recorded({});
    CHECK(tree_text(trace) == "@parsing(outer(middle(inner +inner) sibling join))");
    CHECK(trace.selection.everything());
    CHECK(trace.selection.left_out(false).empty());
}

TEST_CASE("hits left out: no hit record, the rest as before") {
    EventSelection events;
    events.hits = false;
    const Trace trace = recorded(events);
    CHECK(tree_text(trace) == "@parsing(outer(middle(inner) sibling join))");
    CHECK(qprof::test::totals_of(trace, "inner").hits == 0);
    CHECK(trace.selection.left_out(false) == "hits");
}

TEST_CASE("a provider left out is not recorded, and what it asked is its caller's") {
    EventSelection events;
    events.excluded = {"middle"};
    const Trace trace = recorded(events);
    CHECK(tree_text(trace) == "@parsing(outer(inner +inner sibling join))");
    CHECK(trace.selection.left_out(false) == "providers middle");
}

TEST_CASE("activities and waits left out, each alone") {
    EventSelection no_activities;
    no_activities.activities = false;
    CHECK(tree_text(recorded(no_activities)) == "outer(middle(inner +inner) sibling join)");
    EventSelection no_waits;
    no_waits.waits = false;
    CHECK(tree_text(recorded(no_waits)) == "@parsing(outer(middle(inner +inner) sibling))");
    EventSelection several;
    several.waits = false;
    several.activities = false;
    several.excluded = {"sibling", "parsing"};
    CHECK(recorded(several).selection.left_out(false) ==
          "activities, waits; providers sibling, parsing");
}

TEST_CASE("keys of the named providers only") {
    EventSelection events;
    events.key_providers = {"type_of"};
    qprof::test::ManualClock clock;
    SessionOptions options = qprof::test::recording_options();
    options.events = events;
    options.record_keys = true;
    qprof::Session session{options};
    qprof::test::traced_type_of(1);
    session.finish();
    CHECK(qprof::test::keyed_nodes(session.trace()) ==
          std::vector<std::string>{"def_span", "type_of[0]", "def_span", "type_of[1]"});
    CHECK(session.trace().selection.left_out(true) == "keys only of type_of");
    CHECK(session.trace().selection.left_out(false).empty());  // no keys: none left out
}

TEST_CASE("loads left out: a load is not recorded, the run after a failed load is") {
    EventSelection events;
    events.loads = false;
    qprof::test::ManualClock clock;
    SessionOptions options = qprof::test::recording_options();
    options.events = events;
    qprof::Session session{options};
    qprof::Query<int, int> cached{"cached", [](const int& key) { return key * 2; },
                                  [](const int& key) -> std::optional<int> {
                                      if (key == 1) {
                                          return 10;
                                      }
                                      return std::nullopt;
                                  }};
    CHECK(cached(1) == 10);  // loaded: nothing recorded
    CHECK(cached(2) == 4);   // not in the persistent cache: a run
    CHECK(cached(2) == 4);   // a hit
    session.finish();
    CHECK(tree_text(session.trace()) == "cached +cached");
    const qprof::ProviderTotals& totals = qprof::test::totals_of(session.trace(), "cached");
    CHECK(totals.misses == 1);
    CHECK(totals.load_ns == 0);
}

TEST_CASE("each session has its own selection, at sites used by the one before") {
    EventSelection events;
    events.hits = false;
    events.excluded = {"sibling"};
    CHECK(tree_text(recorded(events)) == "@parsing(outer(middle(inner) join))");
    CHECK(tree_text(recorded({})) == "@parsing(outer(middle(inner +inner) sibling join))");
}

TEST_CASE("every report states what was left out") {
    EventSelection events;
    events.hits = false;
    events.excluded = {"sibling"};
    events.key_providers = {"outer"};
    qprof::test::check_golden(statements(recorded(events, true)), "event_selection.approved.txt");
}

TEST_CASE("pprof's profile says what was left out in a comment") {
    EventSelection events;
    events.hits = false;
    const std::string profile = qprof::test::decompress_with_python(
        qprof::test::report_text("pprof", recorded(events)), "gzip");
    CHECK(qprof::test::count_of(profile, "not recorded: hits") == 1);
    const std::string all = qprof::test::decompress_with_python(
        qprof::test::report_text("pprof", recorded({})), "gzip");
    CHECK(qprof::test::count_of(all, "not recorded") == 0);
}

TEST_CASE("reports of a run that left nothing out say nothing of it") {
    const std::string text = statements(recorded({}));
    CHECK(qprof::test::count_of(text, "<no '") == 5);  // no line in any report says it
    CHECK(text.find("not_recorded") == std::string::npos);
    CHECK(text.find("not recorded<") == std::string::npos);
}

TEST_CASE("a merge states what any of its runs left out") {
    EventSelection merged;
    EventSelection no_hits;
    no_hits.hits = false;
    no_hits.excluded = {"a"};
    EventSelection no_loads;
    no_loads.loads = false;
    no_loads.excluded = {"a", "b"};
    merged.add_left_out(no_hits);
    merged.add_left_out(no_loads);
    CHECK(merged.left_out(false) == "hits, loads; providers a, b");
}
