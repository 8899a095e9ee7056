// A program whose session ends in a race, in the way named by its first argument, writing its
// reports into the directory its second argument names (tests/session_race_test.cpp):
//
//   exit-while-finishing   another thread finishes the session; main calls exit() meanwhile
//   finish-while-exiting   main calls exit(); another thread destroys the Session meanwhile
//   fork-while-setting-up  another thread starts the process's first session; main forks
//                          meanwhile, and the child starts a session of its own
//
// Each race is made certain with a hook of src/testing.hpp that stops one thread at the moment
// that matters. Exit status 0: the program ended as it should (what it wrote is the test's).
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <qprof/qprof.hpp>
#include <string>
#include <thread>

#include "testing.hpp"

namespace {

std::string g_dir;
std::atomic<bool> g_stopped{false};  // a thread is stopped in a hook
std::atomic<bool> g_exiting{false};  // exit() has begun
std::unique_ptr<qprof::Session> g_session;
std::thread g_other;

qprof::SessionOptions options() {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.reporters = {"counts"};
    options.output_dir = g_dir;
    return options;
}

void record_some() {
    for (int i = 0; i < 100; ++i) {
        PROFILE_QUERY(before_the_end);
        PROFILE_QUERY_HIT(inside);
    }
}

void wait_for(const std::atomic<bool>& flag) {
    while (!flag.load()) {
        std::this_thread::yield();
    }
}

// Long enough for exit() to end the process when it does not wait for the other thread.
void pause_a_while() { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }

// The other thread finishes the session and stops right after taking it, until main has begun
// to exit(): exit() must wait for its reports rather than end the process under it.
int exit_while_finishing() {
    g_session = std::make_unique<qprof::Session>(options());
    record_some();
    std::atexit(+[] { g_exiting = true; });  // after qprof's: runs before it
    qprof::testing::set_session_switch_hook(+[] {
        if (g_stopped.exchange(true)) {
            return;  // only the first switch: the other thread's
        }
        wait_for(g_exiting);
        pause_a_while();
    });
    g_other = std::thread{[] { g_session->finish(); }};
    g_other.detach();  // exit() ends the process with it still running, if it does not wait
    wait_for(g_stopped);
    std::exit(0);
}

// exit() takes the session and stops there, while the other thread destroys the Session: the
// destructor must wait for exit()'s finish rather than free what it is finishing.
int finish_while_exiting() {
    std::atexit(+[] {  // before qprof's: runs after it
        if (g_other.joinable()) {
            g_other.join();
        }
    });
    g_session = std::make_unique<qprof::Session>(options());
    record_some();
    qprof::testing::set_session_switch_hook(+[] {
        if (g_stopped.exchange(true)) {
            return;  // only the first switch: exit()'s
        }
        pause_a_while();  // the other thread destroys the session now
    });
    g_other = std::thread{[] {
        wait_for(g_stopped);
        g_session.reset();
    }};
    std::exit(0);
}

// The other thread starts the first session of the process and stops inside what that does
// once for the process; main forks then. The child must be able to start its own session.
int fork_while_setting_up() {
    qprof::testing::set_process_setup_hook(+[] {
        if (g_stopped.exchange(true)) {
            return;  // a child that sets the process up again goes on
        }
        wait_for(g_exiting);  // here: until main has forked and seen its child end
    });
    g_other = std::thread{[] {
        qprof::Session session{options()};
        record_some();
    }};
    wait_for(g_stopped);
    const pid_t child = ::fork();
    if (child == 0) {
        ::alarm(10);  // a child that waits forever ends by SIGALRM
        qprof::SessionOptions mine = options();
        mine.reporters.clear();  // no file: the trace says what it recorded
        qprof::Session own{mine};
        { PROFILE_QUERY(in_child); }
        own.finish();
        std::_Exit(own.trace().events == 1 ? 0 : 3);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    g_exiting = true;
    g_other.join();
    if (WIFSIGNALED(status)) {
        std::fprintf(stderr, "the child ended by signal %d\n", WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return WEXITSTATUS(status);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: session_race_helper RACE DIR\n");
        return 2;
    }
    const std::string race = argv[1];
    g_dir = argv[2];
    if (race == "exit-while-finishing") {
        return exit_while_finishing();
    }
    if (race == "finish-while-exiting") {
        return finish_while_exiting();
    }
    if (race == "fork-while-setting-up") {
        return fork_while_setting_up();
    }
    std::fprintf(stderr, "unknown race '%s'\n", race.c_str());
    return 2;
}
