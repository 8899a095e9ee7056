// fork() while recording: the child stops recording cleanly. It never hangs, never writes the
// parent's reports, never appends to the parent's raw stream; the parent's profile is whole.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <qprof/detail/key_record.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "named_sites.hpp"
#include "raw_reader.hpp"
#include "sanitizers.hpp"
#include "test_support.hpp"
#include "testing.hpp"

namespace {
bool g_in_forked_child = false;
}  // namespace

// LeakSanitizer's hook, asked at exit. A forked child inherits the thread-exit registrations
// glibc made for the parent's other threads, which no thread of the child will ever run: the
// child's leak check would report them, though neither qprof nor the test leaked anything.
// The name is LeakSanitizer's, not ours to choose.
// NOLINTNEXTLINE(clang-diagnostic-reserved-identifier)
extern "C" int __lsan_is_turned_off() { return g_in_forked_child ? 1 : 0; }

namespace {

enum class ChildEnd { exit_call, finish_then_exit, second_session };

// Under a sanitizer the child does not begin a session of its own: ThreadSanitizer stops a
// child of a threaded process that starts a thread (as a Session's collector does), and
// AddressSanitizer's allocator can stay locked in the child by a parent thread that was
// allocating at the fork, so the child's first large allocation would wait forever.
constexpr int kChildEnds = qprof::test::kSanitized ? 2 : 3;

// What happens in the child: a few events, then one way to end.
[[noreturn]] void run_child(qprof::Session& inherited, ChildEnd end, const std::string& dir) {
    g_in_forked_child = true;
    ::alarm(20);  // a hang ends the child with SIGALRM, which the parent reports
    for (int i = 0; i < 1000; ++i) {
        PROFILE_QUERY(in_child);
        PROFILE_QUERY_HIT(in_child_hit);
    }
    if (end == ChildEnd::finish_then_exit) {
        inherited.finish();
        std::exit(inherited.recording() ? 4 : 3);
    }
    if (end == ChildEnd::second_session) {
        qprof::SessionOptions options = qprof::test::recording_options();
        options.output_dir = dir;
        qprof::Session own{options};  // the child's own session, with no report file
        { PROFILE_QUERY(in_child_session); }
        own.finish();
        std::exit(own.trace().events == 1 ? 5 : 6);
    }
    std::exit(0);  // atexit finishes the session the child inherited
}

// The child's exit status, or -1 (after killing it) if it has not ended within `seconds`.
int wait_for_child(pid_t child, int seconds = 30) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    int status = 0;
    while (::waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > give_up) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Waits for the other thread's first query, so that the forks land among what a test is about
// (a thread's first use of a key type is the test "... uses a key type first ..." below).
void wait_until_started(const std::atomic<bool>& started) {
    while (!started.load(std::memory_order_acquire)) {
        std::this_thread::yield();
    }
}

// Forks 64 times while another thread works; each child runs `in_child` and _exit()s with
// what it returns (0: all went well). A child that hangs is killed and fails the test.
void fork_children(int (*in_child)(), const char* doing) {
    constexpr int kForks = 64;
    for (int i = 0; i < kForks; ++i) {
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            g_in_forked_child = true;
            ::_exit(in_child());
        }
        const int status = wait_for_child(child);
        if (status == -1) {
            FAIL("the child of fork " << i << " did not end within 30 s: " << doing
                                      << ", it waited for a lock no thread of it will release");
        }
        REQUIRE(status == 0);
    }
}

}  // namespace

TEST_CASE("a child forked while recording ends cleanly and leaves the parent's profile alone") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"raw", "counts"};
    options.output_dir = dir.path().string();
    qprof::Session session{options};
    std::atomic<bool> stop{false};
    std::thread busy{[&] {  // keeps the recorder and the collector working across each fork
        while (!stop) {
            PROFILE_QUERY(busy_work);
            PROFILE_QUERY_HIT(busy_hit);
        }
    }};
    // Each fork lands wherever the busy thread is: the more forks, the likelier one lands in a
    // recorder's or the collector's critical section. That search is the default build's;
    // under ThreadSanitizer 24 forks took 110 s, most of it reading back the 700 MB that the
    // busy thread recorded meanwhile, so it forks 8 times, still each way to end 4 times.
    constexpr int kForks = qprof::test::kThreadSanitizer ? 8 : 24;
    for (int i = 0; i < kForks; ++i) {
        { PROFILE_QUERY(before_fork); }
        const auto end = static_cast<ChildEnd>(i % kChildEnds);
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            run_child(session, end, dir.path().string());
        }
        const int expected = end == ChildEnd::exit_call          ? 0
                             : end == ChildEnd::finish_then_exit ? 3
                                                                 : 5;
        INFO("fork " << i);
        REQUIRE(wait_for_child(child) == expected);
        // The child wrote no report: only the parent's raw stream is there.
        REQUIRE_FALSE(std::filesystem::exists(dir.path() / "profile_queries.counts.txt"));
    }
    stop = true;
    busy.join();
    session.finish();

    CHECK(qprof::test::totals_of(session.trace(), "before_fork").count == kForks);
    const std::vector<unsigned char> bytes =
        qprof::test::read_bytes(dir.path() / "profile_queries.qprof");
    const qprof::detail::ReadResult read = qprof::detail::read_stream(bytes, {});
    CHECK(read.diagnostics.empty());
    CHECK_FALSE(read.damaged);
    REQUIRE(read.runs.size() == 1);  // no run of a child appended
    CHECK(read.runs[0].complete);
    for (const auto& site : read.runs[0].inputs.sites) {
        CHECK(site.provider.find("in_child") == std::string::npos);
    }
}

// A program that forks while another thread interns a key: the child must not inherit the lock
// of the key type's table (key_cache.hpp) held by a thread it does not have. Each child
// interns a key of that type as a keyed query does (its own session would, but a sanitizer
// build cannot start one in the child: see kChildEnds); without the lock released in the child
// it would wait forever.
TEST_CASE("a child forked while another thread interns keys can intern keys of the same type") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    options.reporters = {"counts"};
    options.output_dir = dir.path().string();
    qprof::Session session{options};
    // One more key than a thread's cache holds, visited in turn: the cache, emptied when full,
    // never holds the next one, so every query takes the table's lock.
    std::vector<std::string> keys;
    keys.reserve(qprof::detail::kMaxCachedKeys + 1);
    for (std::size_t i = 0; i <= qprof::detail::kMaxCachedKeys; ++i) {
        keys.push_back("src/module_" + std::to_string(i) + ".cpp");
    }
    std::atomic<bool> started{false};
    std::jthread interning{[&](const std::stop_token& stop) {
        for (std::size_t i = 0; !stop.stop_requested(); i = (i + 1) % keys.size()) {
            PROFILE_QUERY(keyed_work, keys[i]);
            started.store(true, std::memory_order_release);
        }
    }};
    wait_until_started(started);
    fork_children(
        +[] { return qprof::detail::intern_key(std::string{"in child"}) != 0 ? 0 : 1; },
        "interning a key");
}

// The same for a name given at run time (a size, a counter, a region): the first use of a
// name on a thread registers it under the named sites' lock.
TEST_CASE("a child forked while another thread registers named sites can register names") {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"counts"};
    options.output_dir = dir.path().string();
    qprof::Session session{options};
    // More names than a thread's cache of named sites has slots, 32 bytes apart: most share a
    // slot, so nearly every use finds another name there and takes the lock.
    std::vector<std::string> names;
    names.reserve(256);
    for (int i = 0; i < 256; ++i) {
        names.push_back("size " + std::to_string(i));
    }
    std::atomic<bool> started{false};
    std::jthread registering{[&](const std::stop_token& stop) {
        for (std::size_t i = 0; !stop.stop_requested(); i = (i + 1) % names.size()) {
            qprof::record_size(names[i].c_str(), 1);
            started.store(true, std::memory_order_release);
        }
    }};
    wait_until_started(started);
    fork_children(
        +[] {
            using qprof::detail::SiteKind;
            return qprof::detail::named_site("in child", SiteKind::size, __FILE__, __LINE__).id != 0
                       ? 0
                       : 1;
        },
        "registering a named site");
}

namespace {

// A key type of its own for each I: each one's first use in a process makes its InternedKeys and
// registers it, once.
template <int I>
struct FreshKey {
    std::string name;
};
constexpr int kFreshKeyTypes = 48;

// Uses every FreshKey type: a key of it interned and its type's id taken. True if all went well.
template <int... I>
bool use_fresh_key_types(std::integer_sequence<int, I...> /*types*/) {
    return ((qprof::detail::intern_key(FreshKey<I>{"key"}) != 0 &&
             qprof::detail::key_type_id<FreshKey<I>>() != 0) &&
            ...);
}
bool use_fresh_key_types() {
    return use_fresh_key_types(std::make_integer_sequence<int, kFreshKeyTypes>{});
}

}  // namespace

// A process's first key of a type makes that type's table and registers the type. A child
// forked while another thread did that must not wait for it: it would wait forever (a
// function-local static's guard, which no thread of the child will release). Each round runs
// in a fresh child of the test, where no FreshKey type was used yet: a thread there uses them
// all for the first time while its process forks grandchildren, one after another until the
// thread is done, which use them all too. A round lands a fork in a type's first use only now
// and then; with the tables made in function-local statics, a grandchild of the first or
// second round hung in each of two runs.
TEST_CASE("a child forked while another thread uses a key type first can use that type") {
    if (qprof::test::kSanitized) {
        return;  // a sanitizer's runtime may be locked in a grandchild (see kChildEnds)
    }
    constexpr int kRounds = 40;
    constexpr int kForksPerRound = 4;
    for (int round = 0; round < kRounds; ++round) {
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            g_in_forked_child = true;
            ::alarm(20);
            std::atomic<bool> go{false};
            std::atomic<bool> done{false};
            std::thread first_uses{[&go, &done] {
                while (!go.load(std::memory_order_acquire)) {
                }
                use_fresh_key_types();
                done.store(true, std::memory_order_release);
            }};
            go.store(true, std::memory_order_release);
            // Grandchildren forked one after another until the thread is done, then waited for.
            std::vector<pid_t> grandchildren;
            while (!done.load(std::memory_order_acquire) || grandchildren.size() < kForksPerRound) {
                const pid_t grandchild = ::fork();
                if (grandchild == 0) {
                    ::alarm(10);
                    ::_exit(use_fresh_key_types() ? 0 : 1);
                }
                grandchildren.push_back(grandchild);
            }
            int failed = 0;
            for (const pid_t grandchild : grandchildren) {
                failed += grandchild < 0 || wait_for_child(grandchild, 10) != 0 ? 1 : 0;
            }
            first_uses.join();
            ::_exit(failed);
        }
        const int status = wait_for_child(child);
        INFO("round " << round);
        REQUIRE(status == 0);  // else some grandchild hung (killed after 10 s) or failed
    }
}

namespace {

// The switch of the active session that the hook stops (counted from 1; 0: none), whether a
// thread is stopped there, and when it may go on.
std::atomic<int> g_stop_at_switch{0};
std::atomic<int> g_switches{0};
std::atomic<bool> g_stopped_at_switch{false};
std::atomic<bool> g_switch_may_go_on{false};

void stop_at_switch() {
    if (++g_switches != g_stop_at_switch.load()) {
        return;
    }
    g_stopped_at_switch = true;
    while (!g_switch_may_go_on.load()) {
        std::this_thread::yield();
    }
}

}  // namespace

// exit() finishes the active session, which a Session sets as it starts and clears as it
// finishes. A program that forks while another thread does either must get a child that can
// still exit: the child must not wait for anything that thread held at the fork, which it does
// not have. The other thread is stopped right there (src/testing.hpp) for the whole fork.
TEST_CASE("a child forked while another thread starts or finishes a session can exit") {
    qprof::test::TempDir dir;
    for (const int stop_at : {1, 2}) {  // the session's start, then its finish
        const char* doing = stop_at == 1 ? "starting a session" : "finishing a session";
        INFO("another thread was " << doing);
        g_stop_at_switch = stop_at;
        g_switches = 0;
        g_stopped_at_switch = false;
        g_switch_may_go_on = false;
        qprof::testing::set_session_switch_hook(&stop_at_switch);
        std::thread other{[&] {
            qprof::SessionOptions options = qprof::test::recording_options();
            options.output_dir = dir.path().string();
            qprof::Session session{options};
            { PROFILE_QUERY(on_other_thread); }
            session.finish();
        }};
        while (!g_stopped_at_switch.load()) {
            std::this_thread::yield();
        }
        const pid_t child = ::fork();
        if (child == 0) {
            g_in_forked_child = true;
            ::alarm(20);
            std::exit(0);  // runs the atexit hook that finishes the active session
        }
        const int status = child < 0 ? -2 : wait_for_child(child, 10);
        g_switch_may_go_on = true;  // before any check can fail: the thread must end
        other.join();
        qprof::testing::set_session_switch_hook(nullptr);
        REQUIRE(child > 0);
        if (status == -1) {
            FAIL("the child did not exit within 10 s of its fork while another thread was "
                 << doing << ": it waited for a lock that thread held at the fork");
        }
        CHECK(status == 0);
    }
}
