// toyc at its default size with counts, folded and chrome: each report well formed, and the
// three agreeing with each other on the real trace, to the nanosecond. Under a sanitizer toyc
// compiles 2,000 items instead of 11,000: the same threads, reports and code paths, and TSan's
// run no longer takes a minute and a half of CI's time (86 s of 271 for all its tests).

#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <sstream>

#include "json.hpp"
#include "sanitizers.hpp"
#include "test_support.hpp"

namespace {

namespace json = qprof::test::json;

using Counts = std::map<std::string, std::uint64_t>;  // by provider
using Times = std::map<std::string, std::int64_t>;    // ns by thread name, as folded writes it

std::string folded_name(std::string name) {
    std::replace(name.begin(), name.end(), ' ', '_');
    return name;
}

// "1234.567" (µs with exactly three decimals) -> 1234567 ns.
std::int64_t nanoseconds(const json::Value& micros) {
    static const std::regex form{"[0-9]+\\.[0-9]{3}"};
    if (!std::regex_match(micros.text, form)) {
        FAIL("not microseconds with 3 decimals: " << micros.text);
    }
    const std::size_t dot = micros.text.find('.');
    return std::stoll(micros.text.substr(0, dot)) * 1000 + std::stoll(micros.text.substr(dot + 1));
}

// Follows the complete events of one thread in file order: each must lie within the event
// it is nested in and start at or after the end of the sibling before it. Time is exact
// nanoseconds, or microseconds added in floating point as DevTools and speedscope add them.
template <typename Time>
class NestingWalk {
  public:
    void add(Time start, Time end) {
        bad_ += start < last_start_ || end < start;
        last_start_ = start;
        Time sibling_end = start;
        while (!open_.empty() && !(open_.back().first <= start && end <= open_.back().second)) {
            sibling_end = open_.back().second;
            open_.pop_back();
        }
        bad_ += start < sibling_end;
        top_level_ += open_.empty() ? end - start : Time{};
        top_level_count_ += open_.empty();
        open_.emplace_back(start, end);
    }
    std::uint64_t bad() const { return bad_; }
    Time top_level() const { return top_level_; }
    std::int64_t top_level_count() const { return top_level_count_; }

  private:
    std::vector<std::pair<Time, Time>> open_;
    Time last_start_{};
    Time top_level_{};
    std::int64_t top_level_count_ = 0;
    std::uint64_t bad_ = 0;
};

struct ChromeSummary {
    Counts events;  // X and i events by provider
    Times top_level;
    Times top_level_count;
    std::uint64_t bad_nesting = 0;        // in exact nanoseconds
    std::uint64_t bad_float_nesting = 0;  // with ts + dur added as doubles
};

ChromeSummary read_chrome(const std::string& text) {
    std::map<std::int64_t, NestingWalk<std::int64_t>> walks;  // by tid
    std::map<std::int64_t, NestingWalk<double>> float_walks;
    std::map<std::int64_t, std::string> names;
    ChromeSummary summary;
    json::parse(text, "traceEvents", [&](const json::Value& event) {
        const std::string& phase = event["ph"].text;
        const json::Value* thread = event.find("tid");  // the process's name has none
        const auto tid = thread == nullptr ? 0 : static_cast<std::int64_t>(thread->number);
        if (phase == "M" && event["name"].text == "thread_name") {
            names[tid] = event["args"]["name"].text;
        } else if (phase == "X" || phase == "i") {
            ++summary.events[event["name"].text];
        }
        if (phase == "X") {
            const std::int64_t start = nanoseconds(event["ts"]);
            walks[tid].add(start, start + nanoseconds(event["dur"]));
            const double float_start = std::stod(event["ts"].text);
            float_walks[tid].add(float_start, float_start + std::stod(event["dur"].text));
        }
    });
    for (const auto& [tid, walk] : walks) {
        summary.top_level[folded_name(names.at(tid))] += walk.top_level();
        summary.top_level_count[folded_name(names.at(tid))] += walk.top_level_count();
        summary.bad_nesting += walk.bad();
        summary.bad_float_nesting += float_walks[tid].bad();
    }
    return summary;
}

// Runs by provider and activity; an activity's rows per argument, right under it and named
// "activity(argument)", are counted apart in `argument_runs`.
Counts read_counts(const std::string& text, Counts& argument_runs) {
    Counts counts;
    std::istringstream lines{text};
    std::string activity;  // the last row with a fourth field, a CPU time
    for (std::string line; std::getline(lines, line);) {
        // provider,count,duration[,cpu]: the provider ends at the first comma not escaped.
        std::size_t count = 0;
        while (line[count] != ',') {
            count += line[count] == '\\' ? 2 : 1;
        }
        const std::size_t duration = line.find(',', count + 1);
        const std::string name = line.substr(0, count);
        const std::uint64_t runs = std::stoull(line.substr(count + 1, duration - count - 1));
        const bool has_cpu = line.find(',', duration + 1) != std::string::npos;
        if (!activity.empty() && has_cpu && name.starts_with(activity + "(")) {
            argument_runs[activity] += runs;
            continue;
        }
        activity = has_cpu ? name : "";
        counts[name] = runs;
    }
    return counts;
}

struct Folded {
    Times self_ns;  // self time by root frame
    Times lines;    // lines by root frame
};

// Self time and lines by root frame; checks the form of every line.
Folded read_folded(const std::string& text) {
    const std::regex line_form{"[^ ]+( [0-9]+)"};
    std::uint64_t malformed = 0;
    Folded folded;
    std::istringstream lines{text};
    for (std::string line; std::getline(lines, line);) {
        malformed += !std::regex_match(line, line_form);
        const std::string root = line.substr(0, line.find_first_of("; "));
        folded.self_ns[root] += std::stoll(line.substr(line.rfind(' ') + 1));
        folded.lines[root] += 1;
    }
    CHECK(malformed == 0);
    return folded;
}

}  // namespace

TEST_CASE("toyc's counts, folded and chrome reports agree on the real trace") {
    qprof::test::TempDir dir;
    const qprof::test::CommandResult run = qprof::test::run_command(
        std::string(QPROF_TOYC) + (qprof::test::kSanitized ? " --items 2000" : "") +
            " -Z profile-queries=counts,folded,chrome -Z profile-queries-chrome=hits"
            " -Z profile-queries-dir=" +
            dir.path().string(),
        dir);
    INFO(run.err);
    REQUIRE(run.status == 0);

    const Folded folded =
        read_folded(qprof::test::read_file(dir.path() / "profile_queries.folded"));
    const ChromeSummary chrome =
        read_chrome(qprof::test::read_file(dir.path() / "profile_queries.trace.json"));
    Counts argument_runs;
    const Counts counts = read_counts(
        qprof::test::read_file(dir.path() / "profile_queries.counts.txt"), argument_runs);
    CHECK(chrome.bad_nesting == 0);
    CHECK(chrome.bad_float_nesting == 0);
    CHECK(folded.self_ns.size() >= 2);  // main and the codegen workers
    REQUIRE(folded.self_ns.size() == chrome.top_level.size());
    for (const auto& [thread, ns] : folded.self_ns) {
        // Equal but for rounding: a top-level event may give up a nanosecond for floating
        // point, and a frame's self time is its nodes' nanoseconds less its children's, each
        // node rounded on its own, so it can come out a nanosecond or two below zero, a line
        // folded leaves out. A nanosecond per line allows for that; an event lost or counted
        // twice would be microseconds off.
        INFO(thread);
        CHECK(std::abs(ns - chrome.top_level.at(thread)) <=
              chrome.top_level_count.at(thread) + folded.lines.at(thread));
    }
    CHECK(counts.size() > 10);
    CHECK(counts == chrome.events);
    // Each codegen unit's run has a row of its own under the activity's.
    CHECK(argument_runs == Counts{{"codegen unit", counts.at("codegen unit")}});
}
