// Knobs for qprof's own tests and benchmarks, never installed: a clock the test moves by
// hand, a process described by the test, a session that keeps no trace, and a hook where a
// session starts or finishes.
//
//   qprof::detail::set_manual_clock(+[] { return next_tick(); });     // sessions use it from now
//   qprof::testing::set_manual_run(run);                           // and this pid, host, ...
//   auto session = qprof::testing::session_without_trace(options);  // measures the recorder
//   qprof::testing::set_session_switch_hook(+[] { ... });          // runs as a session starts
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

// Sessions started from now describe their process as `run` (program, command line, pids,
// directory, host, start and end times, peak RSS) rather than as it is, so that what they
// record of it is the same on every machine; nullopt: the process as it is again.
void set_manual_run(std::optional<RunInfo> run);

}  // namespace qprof::testing
