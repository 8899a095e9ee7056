// Knobs for qprof's own tests and benchmarks, never installed: a clock the test moves by
// hand, a process described by the test, a session that keeps no trace, and a hook where a
// session starts or finishes.
//
// A session under the manual clock keeps no timer either: its raw stream is written when the
// session ends, when 1 MiB of blocks waits, or at a fatal signal's request, never every second
// on the real clock, and the collector leaves the threads' records in their chunks until then,
// so that a test's stream is the same bytes on every run and its file does not change while
// the test reads it (tests/raw_stream_test.cpp).
//
//   qprof::detail::set_manual_clock(+[] { return next_tick(); });     // sessions use it from now
//   qprof::testing::set_manual_run(run);                           // and this pid, host, ...
//   auto session = qprof::testing::session_without_trace(options);  // measures the recorder
//   qprof::testing::set_session_switch_hook(+[] { ... });          // runs as a session starts
//   qprof::testing::set_process_setup_hook(+[] { ... });           // runs inside the first's setup
#pragma once

#include <memory>
#include <optional>
#include <qprof/session.hpp>
#include <qprof/trace.hpp>

#include "manual_clock.hpp"

namespace qprof::testing {

// A recording session that keeps no trace and writes no report: the collector recycles the
// chunks unread (it still follows keys for a raw stream), so a benchmark can run the hot
// path as long as it likes in flat memory.
std::unique_ptr<Session> session_without_trace(SessionOptions options);

// `hook` runs on the thread that changes which session exit() finishes (a Session starting, or
// finishing), at the moment it changes it, until set back to nullptr: a test stops that thread
// there and forks (tests/fork_test.cpp).
void set_session_switch_hook(void (*hook)());

// `hook` runs inside what the process's first session does once for the whole process (the
// exit and abnormal-end hooks it installs), while another thread starting a session would wait
// for it, until set back to nullptr: a test stops that thread there and forks
// (tests/session_race_helper.cpp).
void set_process_setup_hook(void (*hook)());

// Sessions started from now describe their process as `run` (program, command line, pids,
// directory, host, start and end times, peak RSS) rather than as it is, so that what they
// record of it is the same on every machine; nullopt: the process as it is again.
void set_manual_run(std::optional<RunInfo> run);

}  // namespace qprof::testing
