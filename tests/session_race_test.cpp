// A session that ends in a race with exit(), or starts while the program forks: the program
// ends once, with its reports written once (tests/session_race_helper.cpp stops one thread at
// the moment that matters; run it under ThreadSanitizer and AddressSanitizer too).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "sanitizers.hpp"
#include "test_support.hpp"

namespace {

qprof::test::CommandResult run_race(const std::string& race, const qprof::test::TempDir& dir) {
    // timeout: a program that waits forever fails the test rather than hanging it.
    const std::string command = "timeout -s KILL 60 " + std::string(QPROF_SESSION_RACE_HELPER) +
                                " " + race + " " + dir.path().string();
    return qprof::test::run_command(command, dir);
}

// The report files the run left, by name (the test's own .stdout and .stderr left out).
std::vector<std::string> reports_in(const qprof::test::TempDir& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(".")) {
            names.push_back(name);
        }
    }
    return names;
}

// The race ends the program normally, with its report written once: by the finish that took
// the session, and by nothing again.
void check_ends_once(const std::string& race) {
    const qprof::test::TempDir dir;
    const qprof::test::CommandResult run = run_race(race, dir);
    INFO(run.err);
    CHECK_FALSE(run.signaled);
    CHECK(run.status == 0);
    CHECK(reports_in(dir) == std::vector<std::string>{"profile_queries.counts.txt"});
    CHECK(
        qprof::test::read_file(dir.path() / "profile_queries.counts.txt").find("before_the_end") !=
        std::string::npos);
}

}  // namespace

TEST_CASE("exit() while another thread finishes the session waits for its reports") {
    check_ends_once("exit-while-finishing");
}

TEST_CASE("a Session destroyed while exit() finishes it waits, and the reports are written") {
    check_ends_once("finish-while-exiting");
}

TEST_CASE("a child forked while the first session sets the process up can start a session") {
    // The child starts a collector thread: ThreadSanitizer stops a forked child of a threaded
    // process that starts a thread, and AddressSanitizer can leave its allocator locked in it.
    if (qprof::test::kSanitized) {
        return;
    }
    const qprof::test::TempDir dir;
    const qprof::test::CommandResult run = run_race("fork-while-setting-up", dir);
    INFO(run.err);
    // 128 + SIGALRM (14): the child waited for what the parent's other thread was doing.
    CHECK(run.status == 0);
    CHECK(reports_in(dir) == std::vector<std::string>{"profile_queries.counts.txt"});
}
