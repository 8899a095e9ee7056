// The HTML report's per-provider statistics (table, slowest runs, most-asked keys) and its
// waits, on a small deterministic trace: every clock read advances 1 ms.
#include "html_stats.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>

#include "html_parts.hpp"
#include "random_trees.hpp"
#include "test_support.hpp"

namespace {

using qprof::detail::Preorder;
using qprof::detail::html::ProviderStats;

// type_of(id) runs once per id (1 ms between its two clock reads), then hits; typeck(id) asks
// type_of for every id up to its own, so the first typeck runs the most type_of.
struct Compiler {
    std::vector<bool> typed = std::vector<bool>(16);

    void type_of(int id) {
        if (typed[id]) {
            PROFILE_QUERY_HIT(type_of, id);
            return;
        }
        PROFILE_QUERY(type_of, id);
        typed[id] = true;
    }

    void typeck(int id) {
        PROFILE_QUERY(typeck, id);
        for (int other = 0; other <= id; ++other) {
            type_of(other);
        }
    }

    void compile() {
        PROFILE_ACTIVITY("analysis");
        for (int id : {2, 0, 3, 1}) {
            typeck(id);
        }
        PROFILE_WAIT("join workers");
    }
};

qprof::Trace keyed_trace() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    return qprof::test::trace_of([] { Compiler{}.compile(); }, options);
}

std::vector<ProviderStats> stats_of(const qprof::Trace& trace) {
    std::vector<Preorder> orders;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        orders.emplace_back(thread);
    }
    return qprof::detail::html::provider_stats(trace, orders);
}

const ProviderStats& stats_named(const qprof::Trace& trace, const std::vector<ProviderStats>& stats,
                                 const std::string& name) {
    for (const ProviderStats& s : stats) {
        if (trace.providers[s.provider].provider == name) {
            return s;
        }
    }
    FAIL("no provider " << name);
    return stats.front();
}

}  // namespace

TEST_CASE("provider statistics, slowest runs and most-asked keys match the golden file") {
    const qprof::Trace trace = keyed_trace();
    std::ostringstream out;
    qprof::detail::html::write_stats(out, stats_of(trace));
    std::string text = out.str();
    text += "\nproviders:";
    for (const qprof::ProviderTotals& p : trace.providers) {
        text += ' ' + p.provider;
    }
    text += "\nkeys:";
    for (const std::string& key : trace.key_texts) {
        text += " [" + key + ']';
    }
    qprof::test::check_golden(text + '\n', "html_stats.approved.txt");
}

TEST_CASE("runs and hits are counted apart; mean, median and max are of the runs") {
    const qprof::Trace trace = keyed_trace();
    const std::vector<ProviderStats> stats = stats_of(trace);
    const ProviderStats& type_of = stats_named(trace, stats, "type_of");
    CHECK(type_of.runs == 4);  // ids 0..3, each run once
    CHECK(type_of.hits == 6);  // 1 + 2 + 3 + 4 asks, 4 of them runs
    CHECK(type_of.mean_ns == 1'000'000);
    CHECK(type_of.max_ns == 1'000'000);
    const ProviderStats& typeck = stats_named(trace, stats, "typeck");
    CHECK(typeck.runs == 4);
    CHECK(typeck.hits == 0);
    REQUIRE(typeck.slowest.size() == 4);
    CHECK(typeck.slowest[0].ns == typeck.max_ns);
    // typeck(2), the first, runs three type_of: 7 clock reads; then 1, 3 and 1 ms.
    CHECK(trace.key_texts[typeck.slowest[0].key - 1] == "2");
    CHECK(typeck.slowest[0].ns == 7'000'000);
    CHECK(typeck.slowest[1].ns == 3'000'000);
    CHECK(typeck.mean_ns == 3'000'000);
    CHECK(typeck.median_ns == 1'000'000);  // of 1, 1, 3, 7: the lower middle one
}

TEST_CASE("the most-asked keys come first, with their hits and their runs' time") {
    const qprof::Trace trace = keyed_trace();
    const std::vector<ProviderStats> stats = stats_of(trace);
    const ProviderStats& type_of = stats_named(trace, stats, "type_of");
    REQUIRE(type_of.keys.size() == 4);
    CHECK(trace.key_texts[type_of.keys[0].key - 1] == "0");  // asked by all four typecks
    CHECK(type_of.keys[0].asked == 4);
    CHECK(type_of.keys[0].hits == 3);
    CHECK(type_of.keys[0].ns == 1'000'000);  // its one run; hits take no time
    CHECK(type_of.keys[3].asked == 1);
    // Every key of typeck ran once: its time is that run's, the slowest's 7 ms among them.
    const ProviderStats& typeck = stats_named(trace, stats, "typeck");
    std::int64_t keyed_ns = 0;
    for (const auto& key : typeck.keys) {
        keyed_ns += key.ns;
        if (key.key == typeck.slowest[0].key) {
            CHECK(key.ns == 7'000'000);
        }
    }
    CHECK(keyed_ns == typeck.total_ns);
}

TEST_CASE("PROFILE_WAIT is a wait: never a run, never self time of work") {
    const qprof::Trace trace = keyed_trace();
    const qprof::ProviderTotals& join = qprof::test::totals_of(trace, "join workers");
    CHECK(join.blocked_ns == 1'000'000);
    const std::vector<ProviderStats> stats = stats_of(trace);
    const ProviderStats& wait = stats_named(trace, stats, "join workers");
    CHECK(wait.runs == 0);
    CHECK(wait.waits == 1);
    CHECK(wait.wait_ns == 1'000'000);
    CHECK(wait.self_ns == 0);
    CHECK(wait.work_ns == 0);
    // The pass around it did 19 ms less the 1 ms it waited.
    CHECK(stats_named(trace, stats, "analysis").work_ns == 18'000'000);
    CHECK(qprof::test::tree_text(trace).find("join workers") != std::string::npos);
}

namespace {

// eval re-enters itself three deep; the innermost waits for 1 ms (a clock read per ms).
void eval(int depth) {
    PROFILE_QUERY(eval, depth);
    if (depth > 0) {
        eval(depth - 1);
        return;
    }
    PROFILE_WAIT("join workers");
}

qprof::Trace recursive_trace() {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    eval(2);
    session.finish();
    return session.trace();
}

}  // namespace

TEST_CASE("a provider inside itself counts its time, its work and its waits once") {
    const qprof::Trace trace = recursive_trace();
    const std::vector<ProviderStats> stats = stats_of(trace);
    const ProviderStats& eval = stats_named(trace, stats, "eval");
    // eval(2) 7 ms, eval(1) 5 ms, eval(0) 3 ms around the 1 ms wait.
    CHECK(eval.runs == 3);
    CHECK(eval.total_ns == 7'000'000);
    // Once per enclosing eval, the wait would be taken three times: 4 ms.
    CHECK(eval.work_ns == 6'000'000);
    CHECK(eval.self_ns == 6'000'000);  // 2 ms of each run's own
    const ProviderStats& join = stats_named(trace, stats, "join workers");
    CHECK(join.wait_ns == 1'000'000);
    CHECK(join.work_ns == 0);
}

namespace {

// A wait inside a wait of its own provider (a join that joins again), inside one of another
// provider; every clock read 1 ms: the waits last 5, 3 and 1 ms from the outermost in.
qprof::Trace nested_waits_trace() {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    {
        PROFILE_QUERY(eval, 0);
        PROFILE_WAIT("join workers");
        {
            PROFILE_WAIT("join workers");
            PROFILE_WAIT("lock");
        }
    }
    session.finish();
    return session.trace();
}

}  // namespace

TEST_CASE("a wait inside a wait of its own provider counts once") {
    const qprof::Trace trace = nested_waits_trace();
    const std::vector<ProviderStats> stats = stats_of(trace);
    const ProviderStats& join = stats_named(trace, stats, "join workers");
    CHECK(join.waits == 2);
    CHECK(join.wait_ns == 5'000'000);  // not 5 + 3: the inner join waited within the outer
    CHECK(join.total_ns == 5'000'000);
    CHECK(stats_named(trace, stats, "lock").wait_ns == 1'000'000);  // another provider's
    // eval waited all but the 2 ms of its own clock reads.
    const ProviderStats& eval = stats_named(trace, stats, "eval");
    CHECK(eval.total_ns == 7'000'000);
    CHECK(eval.work_ns == 2'000'000);
}

TEST_CASE("times are the sums of the nodes the page carries, not the totals from ticks") {
    // Totals are summed in clock ticks and converted once; each node's duration is converted
    // on its own. The page's statistics must equal what the viewer sums from its nodes.
    qprof::Trace trace = keyed_trace();
    const std::vector<ProviderStats> exact = stats_of(trace);
    for (qprof::ProviderTotals& totals : trace.providers) {
        totals.total_ns += 3;  // as rounding a sum of ticks may
        totals.self_ns -= 2;
        totals.blocked_ns += 1;
    }
    const std::vector<ProviderStats> stats = stats_of(trace);
    for (std::size_t p = 0; p < stats.size(); ++p) {
        CHECK(stats[p].total_ns == exact[p].total_ns);
        CHECK(stats[p].self_ns == exact[p].self_ns);
        CHECK(stats[p].wait_ns == exact[p].wait_ns);
        CHECK(stats[p].work_ns == exact[p].work_ns);
    }
    // And those sums are the nodes': typeck's four runs take 7 + 1 + 3 + 1 ms.
    CHECK(stats_named(trace, stats, "typeck").total_ns == 12'000'000);
}

TEST_CASE("the header lists waits apart from the providers with the most self time") {
    const qprof::Trace trace = keyed_trace();
    const std::string page = qprof::test::report_text("html", trace);
    const auto hot = page.find("id=\"hot-providers\"");
    const auto waits = page.find("id=\"hot-waits\"");
    REQUIRE(hot != std::string::npos);
    REQUIRE(waits != std::string::npos);
    const std::string hot_list = page.substr(hot, page.find("</ol>", hot) - hot);
    CHECK(hot_list.find("join workers") == std::string::npos);
    CHECK(hot_list.find("typeck") != std::string::npos);
    const std::string wait_list = page.substr(waits, page.find("</ol>", waits) - waits);
    CHECK(wait_list.find("join workers") != std::string::npos);
}

TEST_CASE("callers and callees are merged over the whole run") {
    const qprof::Trace trace = keyed_trace();
    const std::vector<ProviderStats> stats = stats_of(trace);
    const ProviderStats& typeck = stats_named(trace, stats, "typeck");
    REQUIRE(typeck.callers.size() == 1);
    CHECK(trace.providers[typeck.callers[0].provider].provider == "analysis");
    CHECK(typeck.callers[0].calls == 4);
    CHECK(typeck.callers[0].ns == typeck.total_ns);
    REQUIRE(typeck.callees.size() == 1);
    CHECK(trace.providers[typeck.callees[0].provider].provider == "type_of");
    CHECK(typeck.callees[0].calls == 10);  // 4 runs and 6 hits
    CHECK(typeck.callees[0].ns == 4'000'000);
    const ProviderStats& analysis = stats_named(trace, stats, "analysis");
    // A root: the thread's top level called it, no provider.
    REQUIRE(analysis.callers.size() == 1);
    CHECK(analysis.callers[0].provider == qprof::detail::html::kTopLevel);
    CHECK(analysis.callers[0].calls == analysis.runs);
    CHECK(analysis.callers[0].ns == analysis.total_ns);
    REQUIRE(analysis.callees.size() == 2);  // typeck (12 ms), then join workers (1 ms)
    CHECK(trace.providers[analysis.callees[0].provider].provider == "typeck");
    CHECK(trace.providers[analysis.callees[1].provider].provider == "join workers");
}

TEST_CASE("run durations are counted by decade") {
    using qprof::detail::html::histogram_bucket;
    CHECK(histogram_bucket(0) == 0);
    CHECK(histogram_bucket(999) == 0);
    CHECK(histogram_bucket(1'000) == 1);
    CHECK(histogram_bucket(999'999) == 3);
    CHECK(histogram_bucket(1'000'000) == 4);
    CHECK(histogram_bucket(999'999'999) == 6);
    CHECK(histogram_bucket(1'000'000'000) == 7);
    CHECK(histogram_bucket(1'000'000'000'000) == 7);
    CHECK(histogram_bucket(-1) == 0);
}

// The median's selection against a sort: values in one bucket and spread over many, duplicates,
// negative values (a clock that stepped back), the largest there are, every k of each.
TEST_CASE("the k-th smallest duration is found whatever the values") {
    using qprof::detail::html::kth_smallest;
    std::mt19937_64 random{7};
    const std::vector<std::vector<std::int64_t>> fixed{
        {5},
        {3, 3, 3, 3},
        {-4, 0, -9, 7, 8, 15, 16, 1'000'000, -1},
        {std::numeric_limits<std::int64_t>::max(), 0, std::numeric_limits<std::int64_t>::min(),
         std::numeric_limits<std::int64_t>::max() - 1}};
    std::vector<std::vector<std::int64_t>> cases = fixed;
    for (const std::int64_t spread :
         {std::int64_t{16}, std::int64_t{1} << 20, std::int64_t{1} << 40}) {
        std::vector<std::int64_t> values(301);
        for (std::int64_t& value : values) {
            value = static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(spread)) - 3;
        }
        cases.push_back(values);
    }
    for (const std::vector<std::int64_t>& values : cases) {
        std::vector<std::int64_t> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t k = 0; k < values.size(); ++k) {
            std::vector<std::int64_t> reordered = values;
            CHECK(kth_smallest(reordered, k) == sorted[k]);
        }
    }
}

namespace {

std::string stats_text(const std::vector<ProviderStats>& stats) {
    std::ostringstream out;
    qprof::detail::html::write_stats(out, stats);
    return out.str();
}

// The walk of the nodes as stored against the walk in pre-order, over one trace.
void check_walks_agree(const qprof::Trace& trace, std::uint32_t seed, bool hits_adopt) {
    std::vector<Preorder> orders;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        orders.emplace_back(thread);
    }
    INFO("seed " << seed << (hits_adopt ? ", hits with children" : ""));
    CHECK(std::all_of(orders.begin(), orders.end(), [](const Preorder& order) {
              return order.hits_are_leaves();
          }) == !hits_adopt);
    const std::string walked = stats_text(qprof::detail::html::provider_stats(trace, orders));
    CHECK(walked == stats_text(qprof::detail::html::provider_stats_in_preorder(trace, orders)));
    CHECK(walked.find("\"slowest\":[[") != std::string::npos);
}

}  // namespace

// Without keys, the walk counts each thread's hits in a table of callers and callees
// (HitCalls) instead of one call edge at a time.
TEST_CASE("the statistics' walk of the nodes as stored gives what a walk in pre-order gives") {
    for (const bool keyed : {true, false}) {
        for (const bool hits_adopt : {false, true}) {
            for (std::uint32_t seed = 1; seed <= 20; ++seed) {
                qprof::Trace trace = qprof::test::random_trace(seed, hits_adopt);
                if (!keyed) {
                    for (qprof::ThreadTrace& thread : trace.threads) {
                        thread.keys.clear();
                    }
                    trace.key_texts.clear();
                }
                INFO((keyed ? "keys" : "no keys"));
                check_walks_agree(trace, seed, hits_adopt);
            }
        }
    }
}
