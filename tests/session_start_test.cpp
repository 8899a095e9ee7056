// Starting a session without exceptions (Session::from_args), -Z help, and a second session
// while one records, which must be a SessionError like every other reason a session cannot
// start.
#include <catch2/catch.hpp>
#include <iostream>
#include <sstream>

#include "test_support.hpp"

namespace {

// Captures what is written to std::cout while alive.
class CapturedStdout {
  public:
    CapturedStdout() : old_(std::cout.rdbuf(text_.rdbuf())) {}
    ~CapturedStdout() { std::cout.rdbuf(old_); }
    std::string text() const { return text_.str(); }

  private:
    std::ostringstream text_;
    std::streambuf* old_;
};

}  // namespace

TEST_CASE("from_args starts a session and leaves the program's arguments") {
    qprof::test::TempDir dir;
    std::string dir_flag = "-Zprofile-queries-dir=" + dir.path().string();
    char program[] = "prog";
    char profile[] = "-Zprofile-queries=counts";
    char input[] = "input.src";
    char* argv[] = {program, profile, dir_flag.data(), input, nullptr};
    int argc = 4;
    qprof::SessionStart start = qprof::Session::from_args(argc, argv);
    REQUIRE(start);
    CHECK(start.error.empty());
    CHECK_FALSE(start.help_shown);
    CHECK(start.session->recording());
    CHECK(argc == 2);
    CHECK(std::string(argv[1]) == "input.src");
    { PROFILE_QUERY(from_args_query); }
    start.session.reset();
    CHECK(qprof::test::read_file(dir.path() / "profile_queries.counts.txt")
              .starts_with("from_args_query,1,"));
}

TEST_CASE("from_args gives a bad flag back as text, without throwing") {
    char program[] = "prog";
    char flag[] = "-Zprofile-querys";
    char* argv[] = {program, flag, nullptr};
    int argc = 2;
    qprof::SessionStart start;
    REQUIRE_NOTHROW(start = qprof::Session::from_args(argc, argv));
    CHECK_FALSE(start);
    CHECK_FALSE(start.help_shown);
    CHECK_THAT(start.error, Catch::StartsWith("qprof: unknown flag '-Z profile-querys'") &&
                                Catch::Contains("Did you mean '-Z profile-queries'?"));
}

TEST_CASE("from_args reports -Z help to the caller instead of exiting") {
    char program[] = "prog";
    char flag[] = "-Zhelp";
    char* argv[] = {program, flag, nullptr};
    int argc = 2;
    CapturedStdout out;
    const qprof::SessionStart start = qprof::Session::from_args(argc, argv);
    CHECK_FALSE(start);
    CHECK(start.help_shown);
    CHECK(start.error.empty());
    CHECK_THAT(out.text(), Catch::Contains("-Z profile-queries-dir=PATH"));
}

TEST_CASE("Session(argc, argv) with -Z help prints the flags and returns, recording nothing") {
    char program[] = "prog";
    char flag[] = "-Zhelp";
    char input[] = "input.src";
    char* argv[] = {program, flag, input, nullptr};
    int argc = 3;
    CapturedStdout out;
    const qprof::Session session{argc, argv};  // used to call std::exit(0) here
    CHECK(session.help_shown());
    CHECK_FALSE(session.recording());
    CHECK(argc == 2);
    CHECK(std::string(argv[1]) == "input.src");
    CHECK_THAT(out.text(), Catch::Contains("-Z profile-queries-dir=PATH"));
}

TEST_CASE("a session without -Z help says no help was shown") {
    const qprof::Session session{qprof::test::recording_options()};
    CHECK_FALSE(session.help_shown());
    CHECK(session.recording());
}

TEST_CASE("an output directory that cannot be written is an OutputError, a SessionError") {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"raw"};
    options.output_dir = "/proc/qprof-cannot-write-here";
    REQUIRE_THROWS_AS(qprof::Session{options}, qprof::OutputError);
    REQUIRE_THROWS_AS(qprof::Session{options}, qprof::SessionError);
}

TEST_CASE("a second session while one records is a SessionError, and from_args says so") {
    const qprof::SessionOptions options = qprof::test::recording_options();
    qprof::Session first{options};
    REQUIRE(first.recording());
    REQUIRE_THROWS_AS(qprof::Session{options}, qprof::SessionError);
    REQUIRE_THROWS_WITH(qprof::Session{options}, Catch::Contains("already recording") &&
                                                     Catch::Contains("before creating the next"));

    char program[] = "prog";
    char flag[] = "-Zprofile-queries=counts";
    char* argv[] = {program, flag, nullptr};
    int argc = 2;
    const qprof::SessionStart second = qprof::Session::from_args(argc, argv);
    CHECK_FALSE(second);
    CHECK_THAT(second.error, Catch::Contains("already recording"));
    CHECK(first.recording());  // the first one is left alone
}
