// -Z profile-queries-memory: nested providers allocate known byte counts, some kept in a memo
// table, and every report that shows memory gives them exactly. This executable includes the
// allocation hook, so its own operator new is qprof's.
#include <malloc.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <memory>
#include <qprof/alloc_hook.hpp>
#include <qprof/qprof.hpp>
#include <vector>

#include "json.hpp"
#include "test_support.hpp"

using qprof::MemoryUse;
using qprof::test::totals_of;

namespace {

// The sizes the providers allocate; the reports count the allocator's usable size of each.
constexpr std::size_t kInnerKept = 1000;
constexpr std::size_t kInnerTemporary = 2000;
constexpr std::size_t kOuterKept = 500;
constexpr std::size_t kOuterTemporary = 4000;
constexpr std::size_t kLevel = 100;

// What each call of a provider allocated itself, one entry per call in the order the calls
// began, each block counted by its own usable size: glibc may hand out a free block 16 bytes
// larger than a fresh one of the same size (which depends on MALLOC_PERTURB_), so the expected
// figures are summed from the blocks the workload was given.
using Calls = std::vector<MemoryUse>;

struct Tally {
    Calls inner, nested, outer, own_outer, spell;
};

Tally& tally() {
    static Tally calls;
    return calls;
}

// Empties the tally, with room made before any scope opens so that recording allocates nothing.
void reset_tally() {
    for (Calls* calls :
         {&tally().inner, &tally().nested, &tally().outer, &tally().own_outer, &tally().spell}) {
        calls->clear();
        calls->reserve(8);
    }
}

// Starts the record of a call; returns its index in `calls`.
std::size_t begin_call(Calls& calls) {
    calls.emplace_back();
    return calls.size() - 1;
}

// Counts `block` in that call: allocated, and retained if the memo table keeps it.
void count(MemoryUse& call, const void* block, bool kept) {
    const std::uint64_t bytes = malloc_usable_size(const_cast<void*>(block));
    call.allocated_bytes += bytes;
    ++call.allocations;
    if (kept) {
        call.retained_bytes += static_cast<std::int64_t>(bytes);
    }
}

MemoryUse operator+(MemoryUse a, const MemoryUse& b) {
    a.allocated_bytes += b.allocated_bytes;
    a.allocations += b.allocations;
    a.retained_bytes += b.retained_bytes;
    return a;
}

// The sum of the calls from `first` on.
MemoryUse sum(const Calls& calls, std::size_t first = 0) {
    MemoryUse total;
    for (std::size_t call = first; call < calls.size(); ++call) {
        total = total + calls[call];
    }
    return total;
}

// The memo table: results the providers keep. Its room is made before any scope opens.
std::vector<std::unique_ptr<char[]>>& memo() {
    static std::vector<std::unique_ptr<char[]>> table;
    return table;
}

// Keeps a new block of `size` bytes in the memo table, counted in `call`.
void keep(MemoryUse& call, std::size_t size) {
    memo().push_back(std::unique_ptr<char[]>(new char[size]));
    count(call, memo().back().get(), true);
}

void inner() {
    PROFILE_QUERY(inner);
    MemoryUse& call = tally().inner[begin_call(tally().inner)];
    keep(call, kInnerKept);
    const auto temporary = std::make_unique<char[]>(kInnerTemporary);  // freed inside
    count(call, temporary.get(), false);
}

// Re-entered: its inclusive memory counts the outermost call once.
void nested(int levels) {
    PROFILE_QUERY(nested);
    keep(tally().nested[begin_call(tally().nested)], kLevel);
    if (levels > 1) {
        nested(levels - 1);
    }
}

void outer() {
    PROFILE_QUERY(outer);
    const std::size_t call = begin_call(tally().outer);
    const auto temporary = std::make_unique<char[]>(kOuterTemporary);
    count(tally().outer[call], temporary.get(), false);
    inner();
    PROFILE_QUERY_HIT(inner);  // a hit allocates nothing and records no memory
    inner();
    nested(3);
    keep(tally().outer[call], kOuterKept);
}

// Runs the workload once in a session with these options, after a warm-up run (which makes
// qprof's and the program's lasting allocations); the tally holds the measured run only.
qprof::Trace run_workload(qprof::SessionOptions options) {
    reset_tally();
    {
        qprof::Session warm_up{qprof::test::recording_options()};
        outer();
    }
    memo().clear();
    memo().reserve(64);
    reset_tally();
    qprof::Session session{std::move(options)};
    outer();
    session.finish();
    return session.trace();
}

qprof::SessionOptions memory_options() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_memory = true;
    return options;
}

struct Expected {
    MemoryUse inner, nested_total, nested_self, outer_self, outer_total;
};

// The figures of the last measured run, from the tally of its blocks.
Expected expected() {
    const Tally& calls = tally();
    REQUIRE(calls.inner.size() == 2);
    REQUIRE(calls.nested.size() == 3);
    REQUIRE(calls.outer.size() == 1);
    Expected e;
    e.inner = sum(calls.inner);
    e.nested_total = sum(calls.nested);
    e.nested_self = e.nested_total;
    e.outer_self = calls.outer[0];
    e.outer_total = e.outer_self + e.inner + e.nested_total;
    return e;
}

std::string text(const MemoryUse& use) {
    return std::to_string(use.allocated_bytes) + " bytes in " + std::to_string(use.allocations) +
           ", " + std::to_string(use.retained_bytes) + " retained";
}

}  // namespace

TEST_CASE("memory: each provider's allocations, self and inclusive, and what it retained") {
    const qprof::Trace trace = run_workload(memory_options());
    const Expected e = expected();
    CHECK(trace.memory_recorded);
    CHECK(text(totals_of(trace, "inner").memory_total) == text(e.inner));
    CHECK(text(totals_of(trace, "inner").memory_self) == text(e.inner));
    CHECK(text(totals_of(trace, "nested").memory_total) == text(e.nested_total));
    CHECK(text(totals_of(trace, "nested").memory_self) == text(e.nested_self));
    CHECK(text(totals_of(trace, "outer").memory_self) == text(e.outer_self));
    CHECK(text(totals_of(trace, "outer").memory_total) == text(e.outer_total));
}

TEST_CASE("memory: each node carries what was allocated while it was open") {
    const qprof::Trace trace = run_workload(memory_options());
    const Expected e = expected();
    REQUIRE(trace.threads.size() == 1);
    const qprof::ThreadTrace& thread = trace.threads[0];
    REQUIRE(qprof::test::tree_text(trace) == "outer(inner +inner inner nested(nested(nested)))");
    REQUIRE(thread.memory.size() == thread.nodes.size());
    const Calls& inner = tally().inner;
    const Calls& nested = tally().nested;  // outermost call first
    const std::vector<std::string> by_node{
        text(inner[0]),       text({}),              // the hit
        text(inner[1]),       text(sum(nested, 2)),  // nested, deepest
        text(sum(nested, 1)), text(sum(nested, 0)),
        text(e.outer_total),
    };
    for (std::size_t node = 0; node < by_node.size(); ++node) {
        INFO("node " << node);
        CHECK(text(thread.memory[node]) == by_node[node]);
    }
}

namespace {

// Scopes whose bodies allocate nothing, inside one that allocates `kOuterKept` bytes: each makes
// qprof allocate for itself, on this thread, while the program's scopes are open. These sites
// are used here only, so each is registered inside `own_outer`.
void allocates_for_qprof_only(const std::vector<std::string>& keys) {
    PROFILE_QUERY(own_outer);
    keep(tally().own_outer[begin_call(tally().own_outer)], kOuterKept);
    for (const std::string& key : keys) {    // each a new key: its text is made and kept
        PROFILE_QUERY(own_keyed, key, key);  // two arguments: a tuple of copies
    }
    {
        PROFILE_ACTIVITY_ARG("own pass", keys.front());  // the argument's text
        qprof::record_size("own size", 1);               // a named site, registered
    }
    for (int scope = 0; scope < 200'000; ++scope) {  // about 170 chunks: new ones among them
        PROFILE_QUERY(own_leaf);
    }
}

}  // namespace

TEST_CASE("memory: what qprof allocates for itself is not charged to the program's scopes") {
    std::vector<std::string> keys;  // made before the session: longer than a short string
    for (int key = 0; key < 1'000; ++key) {
        keys.push_back("a key longer than any short string optimisation " + std::to_string(key));
    }
    memo().clear();
    memo().reserve(64);
    reset_tally();
    qprof::SessionOptions options = memory_options();
    options.record_keys = true;
    qprof::Session session{std::move(options)};
    allocates_for_qprof_only(keys);
    session.finish();
    const qprof::Trace& trace = session.trace();
    REQUIRE(tally().own_outer.size() == 1);
    const MemoryUse own = tally().own_outer[0];
    CHECK(text(totals_of(trace, "own_outer").memory_self) == text(own));
    CHECK(text(totals_of(trace, "own_outer").memory_total) == text(own));
    for (const char* provider : {"own_keyed", "own pass", "own_leaf"}) {
        INFO(provider);
        CHECK(text(totals_of(trace, provider).memory_total) == text({}));
    }
    CHECK(totals_of(trace, "own_leaf").count == 200'000);
    memo().clear();
}

namespace {

// A key whose formatter runs a query of the program's own, which allocates (and keeps) kLevel
// bytes: formatted on the thread that records it, inside qprof's own allocations.
class Spelled {
  public:
    explicit Spelled(int id) : id_(id) {}
    int id() const { return id_; }

  private:
    int id_;
};

void spell() {
    PROFILE_QUERY(spell);
    keep(tally().spell[begin_call(tally().spell)], kLevel);
}

}  // namespace

template <>
struct qprof::KeyFormatter<Spelled> {
    static void format(std::string& out, const Spelled& key) {
        spell();
        out += "spelled " + std::to_string(key.id());
    }
};

TEST_CASE("memory: a query a key's formatter runs counts its own allocations") {
    memo().clear();
    memo().reserve(64);
    reset_tally();
    qprof::SessionOptions options = memory_options();
    options.record_keys = true;
    qprof::Session session{std::move(options)};
    {
        PROFILE_QUERY(spelled_outer);
        PROFILE_QUERY(spelled, Spelled{1});  // spell runs first, as spelled_outer's child
    }
    session.finish();
    const qprof::Trace& trace = session.trace();
    REQUIRE(tally().spell.size() == 1);
    const MemoryUse spelled = tally().spell[0];
    CHECK(text(totals_of(trace, "spell").memory_total) == text(spelled));
    CHECK(text(totals_of(trace, "spelled").memory_total) == text({}));
    CHECK(text(totals_of(trace, "spelled_outer").memory_total) == text(spelled));
    CHECK(text(totals_of(trace, "spelled_outer").memory_self) == text({}));
    memo().clear();
}

TEST_CASE("memory: without the flag nothing is counted and scopes keep their 24 bytes") {
    const qprof::Trace trace = run_workload(qprof::test::recording_options());
    CHECK_FALSE(trace.memory_recorded);
    REQUIRE(trace.threads.size() == 1);
    CHECK(trace.threads[0].memory.empty());
    CHECK(text(totals_of(trace, "outer").memory_total) == text({}));
    CHECK(qprof::detail::record_words(qprof::detail::RecordKind::miss) == 3);
}

#ifdef QPROF_TOOL
TEST_CASE("memory: qprof summarize --json gives the bytes of a saved run exactly") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = memory_options();
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    run_workload(options);
    const qprof::test::CommandResult run =
        qprof::test::run_command(std::string(QPROF_TOOL) + " summarize -q --json " +
                                     (dir.path() / "profile_queries.qprof").string(),
                                 dir);
    REQUIRE(run.status == 0);
    const auto doc = qprof::test::json::parse(run.out);
    const Expected e = expected();
    auto row = [&](const std::string& provider) -> const qprof::test::json::Value& {
        for (const auto& item : doc["providers"].items) {
            if (item["provider"].text == provider) {
                return item;
            }
        }
        FAIL("no row for " << provider);
        throw std::logic_error("unreachable");
    };
    auto json_text = [](const qprof::test::json::Value& row, const std::string& prefix) {
        return row[prefix + "allocated_bytes"].text + " bytes in " +
               row[prefix + "allocations"].text + ", " + row[prefix + "retained_bytes"].text +
               " retained";
    };
    CHECK(json_text(row("inner"), "") == text(e.inner));
    CHECK(json_text(row("inner"), "self_") == text(e.inner));
    CHECK(json_text(row("nested"), "") == text(e.nested_total));
    CHECK(json_text(row("nested"), "self_") == text(e.nested_self));
    CHECK(json_text(row("outer"), "self_") == text(e.outer_self));
    CHECK(json_text(row("outer"), "") == text(e.outer_total));
}
#endif

#ifdef QPROF_TOOL
// An activity recording memory writes its memory record and then its cpu record (kind 7 after
// kind 16): both reach the live trace and a saved run's summary.
TEST_CASE("memory: an activity keeps its CPU time next to its memory") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = memory_options();
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    qprof::Trace trace;
    reset_tally();
    {
        qprof::Session session{std::move(options)};
        {
            PROFILE_ACTIVITY("memory pass");
            outer();
        }
        session.finish();
        trace = session.trace();
    }
    memo().clear();
    const auto& pass = totals_of(trace, "memory pass");
    CHECK(pass.cpu_ns > 0);
    CHECK(pass.memory_total.allocations >= 9);
    const qprof::test::CommandResult run =
        qprof::test::run_command(std::string(QPROF_TOOL) + " summarize -q --json " +
                                     (dir.path() / "profile_queries.qprof").string(),
                                 dir);
    REQUIRE(run.status == 0);
    const auto doc = qprof::test::json::parse(run.out);
    bool found = false;
    for (const auto& item : doc["providers"].items) {
        if (item["provider"].text == "memory pass") {
            found = true;
            CHECK(item["cpu_ns"].text != "null");
            CHECK(item["allocations"].text == std::to_string(pass.memory_total.allocations));
        }
    }
    CHECK(found);
}
#endif

namespace {

qprof::ReportOptions folded_bytes() {
    qprof::ReportOptions options;
    options.folded_bytes = true;
    return options;
}

// The data-value of the provider table's cell in the row of `provider`, column `sort`.
std::string table_value(const std::string& page, const std::string& provider,
                        const std::string& sort) {
    const std::string table = page.substr(page.find("<table id=\"provider-table\">"));
    const std::string heads = table.substr(0, table.find("</thead>"));
    const std::size_t sort_at = heads.find("data-sort=\"" + sort + "\"");
    REQUIRE(sort_at != std::string::npos);
    std::size_t column = 0;  // the headers closed before it
    for (std::size_t at = heads.find("</th>"); at < sort_at; at = heads.find("</th>", at + 1)) {
        ++column;
    }
    std::size_t cell = table.find("<a href=\"#\">" + provider + "</a>");
    REQUIRE(cell != std::string::npos);
    for (std::size_t next = 0; next < column; ++next) {
        cell = table.find("<td", cell + 1);
    }
    const std::size_t value = table.find("data-value=\"", cell) + 12;
    return table.substr(value, table.find('"', value) - value);
}

// The last measured run's folded stacks by self allocated bytes, on a thread of that name.
std::string folded_bytes_text(const std::string& thread) {
    const Expected e = expected();
    const Calls& nested = tally().nested;  // outermost call first
    return thread + ";outer " + std::to_string(e.outer_self.allocated_bytes) + "\n" + thread +
           ";outer;inner " + std::to_string(e.inner.allocated_bytes) + "\n" + thread +
           ";outer;nested " + std::to_string(nested[0].allocated_bytes) + "\n" + thread +
           ";outer;nested;nested " + std::to_string(nested[1].allocated_bytes) + "\n" + thread +
           ";outer;nested;nested;nested " + std::to_string(nested[2].allocated_bytes) + "\n";
}

}  // namespace

TEST_CASE("memory: the HTML report's table, statistics and columns give the bytes") {
    const qprof::Trace trace = run_workload(memory_options());
    const Expected e = expected();
    const std::string page = qprof::test::report_text("html", trace);
    CHECK(table_value(page, "inner", "alloc") == std::to_string(e.inner.allocated_bytes));
    CHECK(table_value(page, "outer", "alloc") == std::to_string(e.outer_total.allocated_bytes));
    CHECK(table_value(page, "outer", "self-alloc") == std::to_string(e.outer_self.allocated_bytes));
    CHECK(table_value(page, "outer", "allocs") == "9");
    CHECK(table_value(page, "nested", "retained") == std::to_string(e.nested_total.retained_bytes));
    CHECK(table_value(page, "outer", "self-retained") ==
          std::to_string(e.outer_self.retained_bytes));
    CHECK_THAT(page, Catch::Contains("\"memory_recorded\":true"));
    CHECK_THAT(page,
               Catch::Contains(",\"alloc_bytes\":" + std::to_string(e.outer_total.allocated_bytes) +
                               ",\"allocs\":9,"));
    CHECK_THAT(page, Catch::Contains("\"alloc\":") && Catch::Contains("\"retained\":"));
    // Without memory, none of it (the viewer's scripts, which know the names, left out).
    const std::string plain = qprof::test::without_viewer(
        qprof::test::report_text("html", run_workload(qprof::test::recording_options())));
    CHECK_THAT(plain, !Catch::Contains("memory_recorded") && !Catch::Contains("alloc_bytes") &&
                          !Catch::Contains("data-sort=\"alloc\""));
}

TEST_CASE("memory: folded=bytes values each stack by its self allocated bytes, exactly") {
    const qprof::Trace trace = run_workload(memory_options());
    CHECK(qprof::test::report_text("folded", trace, folded_bytes()) ==
          folded_bytes_text(trace.threads.at(0).name));
}

TEST_CASE("memory: the flame graph carries each frame's bytes and offers the switch") {
    const std::string page = qprof::test::report_text("flamegraph", run_workload(memory_options()));
    const Expected e = expected();
    CHECK_THAT(page, Catch::Contains("id=\"weight-bytes\""));
    // The root, the thread and outer: the workload is outer and what it asked.
    const std::string outer = std::to_string(e.outer_total.allocated_bytes);
    CHECK_THAT(page,
               Catch::Contains("\"total_bytes\":[" + outer + "," + outer + "," + outer + ","));
    const std::string plain = qprof::test::without_viewer(
        qprof::test::report_text("flamegraph", run_workload(qprof::test::recording_options())));
    CHECK_THAT(plain, !Catch::Contains("weight-bytes") && !Catch::Contains("total_bytes"));
}

#ifdef QPROF_TOOL
TEST_CASE("memory: qprof report --folded=bytes of a saved run; a run without memory fails") {
    qprof::test::TempDir dir;
    std::string expected_folded;  // from the run with memory
    for (const bool memory : {true, false}) {
        qprof::SessionOptions options =
            memory ? memory_options() : qprof::test::recording_options();
        options.reporters = {"raw"};
        options.output_dir = dir.path().string();
        options.name_pattern = memory ? "with" : "without";
        run_workload(options);
        if (memory) {
            expected_folded = folded_bytes_text("main");
        }
    }
    memo().clear();
    const std::string report = std::string(QPROF_TOOL) + " report -q --reporters=folded " +
                               "--folded=bytes -o " + dir.path().string() + " ";
    const qprof::test::CommandResult with =
        qprof::test::run_command(report + (dir.path() / "with.qprof").string(), dir);
    CHECK(with.status == 0);
    std::ifstream written{dir.path() / "profile_queries.folded"};
    CHECK(std::string{std::istreambuf_iterator<char>{written}, {}} == expected_folded);
    const qprof::test::CommandResult without =
        qprof::test::run_command(report + (dir.path() / "without.qprof").string(), dir);
    CHECK(without.status != 0);
    CHECK_THAT(without.err, Catch::Contains("-Z profile-queries-memory"));
}
#endif
