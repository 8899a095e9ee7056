// The session's contract with the program: flags from argv and QPROF_FLAGS, the output
// directory, and a profile that survives exit().
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>

#include "test_support.hpp"

namespace fs = std::filesystem;

TEST_CASE("an output directory that cannot be written is refused before the run") {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.output_dir = "/proc/qprof-cannot-write-here";
    REQUIRE_THROWS_AS(qprof::Session{options}, qprof::OutputError);
    REQUIRE_THROWS_WITH(qprof::Session{options},
                        Catch::StartsWith("qprof: cannot write reports to "
                                          "'/proc/qprof-cannot-write-here': ") &&
                            Catch::EndsWith("Choose a writable directory with "
                                            "'-Z profile-queries-dir=PATH'."));
}

TEST_CASE("a missing output directory is created") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"counts"};
    options.output_dir = (dir.path() / "nested" / "profiles").string();
    qprof::Session session{options};
    { PROFILE_QUERY(some_query); }
    session.finish();
    CHECK(fs::exists(dir.path() / "nested" / "profiles" / "profile_queries.counts.txt"));
}

TEST_CASE("a run that records memory but allocates nothing still writes bytes-weighed stacks") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"folded"};
    options.record_memory = true;
    options.report.folded_bytes = true;
    options.output_dir = dir.path().string();
    qprof::Session session{options};
    session.finish();
    CHECK(session.trace().memory_recorded);
    CHECK(fs::exists(dir.path() / "profile_queries.folded"));
}

TEST_CASE("Session(argc, argv) reads QPROF_FLAGS and leaves the program's arguments") {
    qprof::test::TempDir dir;
    const std::string flags = "-Z profile-queries -Z profile-queries-dir=" + dir.path().string();
    ::setenv("QPROF_FLAGS", flags.c_str(), 1);
    char program[] = "prog";
    char input[] = "input.src";
    char* argv[] = {program, input, nullptr};
    int argc = 2;
    {
        qprof::Session session{argc, argv};
        ::unsetenv("QPROF_FLAGS");
        CHECK(session.recording());
        CHECK(argc == 2);
        CHECK(std::string(argv[1]) == "input.src");
        { PROFILE_QUERY(from_env); }
    }
    CHECK(qprof::test::read_file(dir.path() / "profile_queries.counts.txt")
              .starts_with("from_env,1,"));
}

TEST_CASE("Session(argc, argv) raises FlagError for a bad flag") {
    char program[] = "prog";
    char flag[] = "-Zprofile-querys";
    char* argv[] = {program, flag, nullptr};
    int argc = 2;
    REQUIRE_THROWS_WITH(qprof::Session(argc, argv),
                        Catch::Contains("Did you mean '-Z profile-queries'?"));
}

TEST_CASE("a program that calls exit() inside scopes still gets its profile") {
    qprof::test::TempDir dir;
    const std::string command =
        std::string(QPROF_EXIT_HELPER) +
        " -Z profile-queries -Z profile-queries-dir=" + dir.path().string() + " 2>" +
        (dir.path() / "stderr").string();
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 3);
    const std::string counts = qprof::test::read_file(dir.path() / "profile_queries.counts.txt");
    CHECK_THAT(counts, Catch::Contains("calls_exit,1,") && Catch::Contains("main pass,1,") &&
                           Catch::Contains("done_before_exit,1,"));
    CHECK_THAT(qprof::test::read_file(dir.path() / "stderr"),
               Catch::Contains("qprof: recorded 3 events on 1 thread"));
}

TEST_CASE("the clock is the TSC where usable, steady_clock when asked") {
    qprof::SessionOptions options = qprof::test::recording_options();
    {
        qprof::Session session{options};
        { PROFILE_QUERY(timed); }
        session.finish();
        CHECK(session.trace().clock == (qprof::detail::tsc_is_usable() ? "tsc" : "steady"));
        CHECK(session.trace().threads.at(0).nodes.at(0).duration_ns() >= 0);
        CHECK(session.trace().wall_ns > 0);
    }
    options.clock = qprof::ClockChoice::steady;
    qprof::Session session{options};
    { PROFILE_QUERY(timed); }
    session.finish();
    CHECK(session.trace().clock == "steady");
    CHECK(session.trace().ns_per_tick == 1.0);
}
