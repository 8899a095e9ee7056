// Reporters users register themselves: by function and by macro, chosen with -Z flags.
#include <catch2/catch.hpp>
#include <sstream>

#include "deep_trace.hpp"
#include "sanitizers.hpp"
#include "test_support.hpp"

namespace {

// Counts the nodes of each outcome: the trace a reporter sees, without parsing a file.
class OutcomeCounter : public qprof::Reporter {
  public:
    std::string_view name() const override { return "outcomes"; }
    std::string_view description() const override { return "nodes per outcome"; }
    std::string_view file_suffix() const override { return "outcomes.txt"; }
    void write(const qprof::Trace& trace, std::ostream& out) override {
        std::uint64_t hits = 0;
        std::uint64_t others = 0;
        for (const qprof::ThreadTrace& thread : trace.threads) {
            for (const qprof::Node& node : thread.nodes) {
                (node.outcome == qprof::Outcome::hit ? hits : others) += 1;
            }
        }
        out << "hits " << hits << "\nothers " << others << '\n';
    }
};

class Failing : public OutcomeCounter {
  public:
    std::string_view name() const override { return "failing"; }
    std::string_view file_suffix() const override { return "failing.txt"; }
    void write(const qprof::Trace&, std::ostream&) override {
        throw std::runtime_error("this reporter always fails");
    }
};

}  // namespace

QPROF_REGISTER_REPORTER(outcomes, OutcomeCounter);

TEST_CASE("a reporter registered with the macro is listed, selectable and run") {
    const std::vector<std::string> names = qprof::reporter_names();
    REQUIRE(names.size() >= 2);
    CHECK(names.front() == "counts");  // built-ins first
    CHECK(std::find(names.begin(), names.end(), "outcomes") != names.end());
    CHECK_THAT(qprof::flags_help(), Catch::Contains("profile_queries.outcomes.txt") &&
                                        Catch::Contains("nodes per outcome"));

    qprof::test::TempDir dir;
    const std::string flags =
        "-Z profile-queries=outcomes,counts -Z profile-queries-dir=" + dir.path().string();
    int argc = 1;
    char program[] = "prog";
    char* argv[] = {program, nullptr};
    qprof::Session session{qprof::parse_flags(argc, argv, flags.c_str())};
    {
        PROFILE_QUERY(miss);
        PROFILE_QUERY_HIT(hit);
        PROFILE_QUERY_HIT(hit);
    }
    session.finish();
    CHECK(session.written_files().size() == 2);
    CHECK(qprof::test::read_file(dir.path() / "profile_queries.outcomes.txt") ==
          "hits 2\nothers 1\n");
    CHECK(qprof::test::read_file(dir.path() / "profile_queries.counts.txt").starts_with("miss,1,"));
}

TEST_CASE("a reporter that throws does not stop the others") {
    qprof::register_reporter("failing", [] { return std::make_unique<Failing>(); });
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"failing", "counts"};
    options.output_dir = dir.path().string();
    qprof::Session session{options};
    { PROFILE_QUERY(still_reported); }
    session.finish();
    CHECK(session.written_files() ==
          std::vector<std::string>{(dir.path() / "profile_queries.counts.txt").string()});
}

TEST_CASE("bad registrations are refused with a reason") {
    auto factory = [] { return std::make_unique<OutcomeCounter>(); };
    CHECK_THROWS_WITH(qprof::register_reporter("counts", factory),
                      Catch::Contains("already registered"));
    CHECK_THROWS_WITH(qprof::register_reporter("Has Space", factory),
                      Catch::Contains("is not valid"));
    CHECK_THROWS_WITH(qprof::register_reporter("", factory), Catch::Contains("is not valid"));
    CHECK_THROWS_WITH(qprof::register_reporter("empty", nullptr),
                      Catch::Contains("without a factory"));
    CHECK(qprof::make_reporter("no-such-reporter") == nullptr);
}

TEST_CASE("every built-in reporter but html writes a 200,000-deep chain without recursion") {
    // A walk that recursed on the depth would overflow the stack here (at a tenth of this
    // depth under ASan). Under TSan, which looks for races, not for the stack, a tenth of it:
    // the whole depth took about a minute of CI's time there.
    constexpr std::uint32_t kDepth = qprof::test::kThreadSanitizer ? 20'000 : 200'000;
    const qprof::Trace trace = qprof::test::deep_chain_trace(kDepth);
    qprof::ReportOptions options;
    options.folded_hits = true;
    options.chrome_hits = true;
    // raw is streamed while the program runs; html is tested in html_reporter_test.
    for (const char* name : {"counts", "keys", "folded", "chrome", "flamegraph", "pprof"}) {
        INFO(name);
        const std::string text = qprof::test::report_text(name, trace, options);
        CHECK_FALSE(text.empty());
    }
}
