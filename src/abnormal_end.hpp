// When the program ends without finishing its session: std::terminate (an exception leaving
// main included), quick_exit, and the signals that end a process by default.
//
//   install_abnormal_end_handlers(&finish_active_session);   // once, when a session starts
//
// std::terminate and quick_exit still run ordinary code, so they finish the session: every
// report is written. A signal handler may only do async-signal-safe things, so a fatal signal
// asks the collector thread to hand the raw stream everything recorded so far and to write
// it, waits a bounded time for that, then lets the signal end the process as it would have.
#pragma once

#include <atomic>
#include <cstdint>

namespace qprof::detail {

// Installs the terminate handler (which then calls the one it replaced), the at_quick_exit
// hook, and handlers for the fatal signals whose action is still the default. Called once per
// process (src/session.cpp), and again by a fork()ed child whose parent was calling it at the
// fork: the handlers are not installed twice, and a second at_quick_exit hook finishes nothing
// twice.
void install_abnormal_end_handlers(void (*finish_active_session)());

// The collector's side of a fatal signal: the handler counts a request, the collector answers
// it by flushing the raw stream and storing the request's number in flushes_done().
// A handler waits only while a collector writing a raw stream runs (raw_flusher_running).
std::atomic<std::uint32_t>& flush_requests();
std::atomic<std::uint32_t>& flushes_done();
std::atomic<bool>& raw_flusher_running();

// Called on the collector thread when it starts: the signals that can go to any thread go to
// another one (this thread is the one a handler waits for), and a signal that this thread
// itself raises does not wait for it.
void prepare_collector_thread_for_signals();

}  // namespace qprof::detail
