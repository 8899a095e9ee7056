#include "abnormal_end.hpp"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace qprof::detail {

namespace {

// Signals that end a process by default and that a handler can outlive long enough to flush.
constexpr std::array kAsyncSignals{SIGINT, SIGTERM, SIGHUP, SIGQUIT};
constexpr std::array kFaultSignals{SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
// How long a signal handler waits for the collector: at most 5 s. The collector wakes every
// few ms, so this only bounds a collector stuck behind a lock the interrupted thread holds; it
// is long because a collector that is only slow (starved of a core on a loaded machine, or
// held in write() by a busy disk) answers late, and a shorter wait lost a run's events.
constexpr int kFlushWaitSteps = 1000;
constexpr long kFlushWaitStepNs = 5'000'000;

void (*g_finish_active_session)() = nullptr;
std::terminate_handler g_previous_terminate = nullptr;
std::atomic<bool> g_finishing_at_terminate{false};
thread_local constinit bool t_is_collector = false;

void finish_at_terminate() {
    if (!g_finishing_at_terminate.exchange(true)) {
        g_finish_active_session();
    }
    if (g_previous_terminate != nullptr) {
        g_previous_terminate();  // e.g. libstdc++'s: names the exception, then aborts
    }
    std::abort();
}

void finish_at_quick_exit() { g_finish_active_session(); }

// Async-signal-safe: atomics and nanosleep only.
void wait_for_raw_flush() {
    if (t_is_collector || !raw_flusher_running().load()) {
        return;  // no raw stream; or the collector, interrupted, cannot answer
    }
    const std::uint32_t request = flush_requests().fetch_add(1) + 1;
    for (int step = 0; step < kFlushWaitSteps; ++step) {
        if (flushes_done().load() >= request) {
            return;
        }
        const timespec pause{0, kFlushWaitStepNs};
        ::nanosleep(&pause, nullptr);
    }
}

void on_fatal_signal(int signal) {
    wait_for_raw_flush();
    // SA_RESETHAND restored the default action: raised again, or returned to the faulting
    // instruction, the signal now ends the process as it would have without qprof.
    if (signal != SIGSEGV && signal != SIGBUS && signal != SIGFPE && signal != SIGILL) {
        ::raise(signal);
    }
}

void handle_if_default(int signal) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
        (current.sa_flags & SA_SIGINFO) != 0) {
        return;  // the program (or a sanitizer) has its own handler: leave it alone
    }
    struct sigaction action {};
    action.sa_handler = &on_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    ::sigaction(signal, &action, nullptr);
}

}  // namespace

std::atomic<std::uint32_t>& flush_requests() {
    static std::atomic<std::uint32_t> requests{0};
    return requests;
}

std::atomic<std::uint32_t>& flushes_done() {
    static std::atomic<std::uint32_t> done{0};
    return done;
}

std::atomic<bool>& raw_flusher_running() {
    static std::atomic<bool> running{false};
    return running;
}

void install_abnormal_end_handlers(void (*finish_active_session)()) {
    // Each step may run twice (see abnormal_end.hpp): the terminate handler never replaces
    // itself, and a signal handled already is no longer at its default action.
    g_finish_active_session = finish_active_session;
    if (const std::terminate_handler previous = std::set_terminate(&finish_at_terminate);
        previous != &finish_at_terminate) {
        g_previous_terminate = previous;
    }
    std::at_quick_exit(&finish_at_quick_exit);
    for (const int signal : kAsyncSignals) {
        handle_if_default(signal);
    }
    for (const int signal : kFaultSignals) {
        handle_if_default(signal);
    }
}

void prepare_collector_thread_for_signals() {
    t_is_collector = true;
    sigset_t blocked;
    sigemptyset(&blocked);
    for (const int signal : kAsyncSignals) {
        sigaddset(&blocked, signal);
    }
    ::pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
}

}  // namespace qprof::detail
