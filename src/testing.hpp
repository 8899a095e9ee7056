// Knobs for qprof's own tests and benchmarks, never installed: a clock the test moves by
// hand, and a session that keeps no trace.
//
//   qprof::detail::set_manual_clock(+[] { return next_tick(); });     // sessions use it from now
//   auto session = qprof::testing::session_without_trace(options);  // measures the recorder
#pragma once

#include <memory>
#include <qprof/session.hpp>

#include "manual_clock.hpp"

namespace qprof::testing {

// A recording session that keeps no trace and writes no report: the collector recycles the
// chunks unread (it still follows keys for a raw stream), so a benchmark can run the hot
// path as long as it likes in flat memory.
std::unique_ptr<Session> session_without_trace(SessionOptions options);

}  // namespace qprof::testing
