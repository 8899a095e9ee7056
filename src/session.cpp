// The session: flags in, recording, collector, reports out.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <qprof/config.hpp>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <qprof/trace.hpp>
#include <stdexcept>
#include <thread>

#include "abnormal_end.hpp"
#include "collector.hpp"
#include "colour_classes.hpp"
#include "format.hpp"
#include "raw_writer.hpp"
#include "recording_control.hpp"
#include "report_files.hpp"
#include "report_writer.hpp"
#include "run_info.hpp"
#include "session_setup.hpp"
#include "testing.hpp"
#include "text.hpp"
#include "trace_completion.hpp"

namespace qprof {

struct Session::State {
    SessionOptions options;
    bool build_trace = true;  // false only for qprof's benchmarks (src/testing.hpp)
    bool help_shown = false;
    bool started = false;  // recorded: set once, before the session can be finished elsewhere
    std::atomic<bool> recording{false};  // read by any thread (recording())
    std::uint32_t generation = 0;
    pid_t pid = 0;  // the process that records: a fork()ed child finishes nothing of it
    detail::ClockKind clock = detail::ClockKind::steady;
    detail::Calibration calibration;
    std::uint64_t start_steady_ns = 0;
    RunInfo run;                               // the process, for the trace and the raw stream
    detail::ColourRules colours;               // -Z profile-queries-colour, compiled once
    std::optional<detail::ReportFiles> files;  // set when recording
    std::unique_ptr<detail::RawWriter> raw;    // outlives the collector, which writes to it
    std::unique_ptr<detail::Collector> collector;
    Trace trace;
    std::vector<std::string> written;
};

namespace {

// The session that exit() must finish, since exit() does not unwind main's locals. One atomic
// pointer, no lock: a child forked while another thread starts or finishes a session (and sets
// it) would inherit such a lock held by a thread it does not have, and wait for it at its exit()
// forever. Nothing else was ever done under that lock, so the atomic orders the same accesses,
// and fork() has no lock of the session's to take (instrument/fork.cpp) or wait for.
//
// It is also how a session is finished once: whoever takes it out of the pointer (the thread
// that ends the session, or exit() on any thread) finishes it, and every other caller waits
// until no finish is running, so that exit() never ends the process under a thread writing the
// reports, and ~Session never frees what exit() is finishing.
std::atomic<Session*> g_active_session{nullptr};
static_assert(std::atomic<Session*>::is_always_lock_free);
std::atomic<void (*)()> g_switch_hook{nullptr};  // src/testing.hpp
std::atomic<void (*)()> g_setup_hook{nullptr};   // likewise

// The finishes running in this process: the pid in the high half, their number in the low
// half. A fork()ed child inherits the count of its parent's, whose threads it does not have:
// under another pid, the count is none.
std::atomic<std::uint64_t> g_finishes{0};
thread_local constinit int t_finishing = 0;  // a finish runs on this thread (it waits for none)

std::uint64_t this_pid() { return static_cast<std::uint64_t>(::getpid()); }

void begin_finish() {
    const std::uint64_t mine = this_pid() << 32;
    std::uint64_t seen = g_finishes.load();
    while (!g_finishes.compare_exchange_weak(seen, (seen >> 32 == mine >> 32 ? seen : mine) + 1)) {
    }
    ++t_finishing;
}

void end_finish() {
    --t_finishing;
    g_finishes.fetch_sub(1);
}

// Returns when no finish runs in this process (at once on a thread running one: a terminate
// handler while the reports are written must not wait for itself). It polls: waiting is rare
// (two threads ending one session at once), and atomic::wait on 64 bits would take a lock of
// the standard library's that a fork() could leave held.
void wait_for_finishes() {
    if (t_finishing > 0) {
        return;
    }
    for (std::uint64_t seen = g_finishes.load();
         seen >> 32 == this_pid() && (seen & 0xffff'ffffu) != 0; seen = g_finishes.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void run_switch_hook() {
    if (void (*hook)() = g_switch_hook.load(); hook != nullptr) {
        hook();
    }
}

// What a fork()ed child inherited of its parent's recording: kept, never destroyed.
detail::Collector* g_forked_collector = nullptr;
detail::RawWriter* g_forked_raw = nullptr;

}  // namespace

namespace detail {

// The one way to Session's private parts from this file's functions and src/testing.hpp.
struct SessionKnobs {
    static std::unique_ptr<Session> without_trace(SessionOptions options) {
        return std::unique_ptr<Session>(new Session(std::move(options), false));
    }
    // Finishes `session`, which the caller has taken out of g_active_session.
    static void finish_taken(Session& session);
};

}  // namespace detail

namespace {

// At exit() (and std::terminate, quick_exit): the active session, if no thread finishes it
// already; then, whoever finished it, the reports are written before the process ends.
void finish_active_session_at_exit() {
    begin_finish();
    if (Session* const session = g_active_session.exchange(nullptr); session != nullptr) {
        run_switch_hook();
        detail::SessionKnobs::finish_taken(*session);
    }
    end_finish();
    wait_for_finishes();
}

// Once per process, the first time a session starts: exit() finishes the active session and
// the abnormal ends do too. Not a function-local static nor a std::call_once: a fork() while
// another thread runs it would leave the child's copy of either "being initialised" by a thread
// the child does not have, and the child's first session would wait for it forever. Here a
// child that finds it begun by its parent runs it again, which each step allows (a second
// atexit registration finishes nothing twice: a session is taken once; the handlers install
// themselves once).
std::atomic<pid_t> g_exit_hooks{0};  // 0: not begun; -1: done; else begun by that process
constexpr pid_t kExitHooksDone = -1;

void install_exit_hooks() {
    const pid_t me = ::getpid();
    for (pid_t seen = g_exit_hooks.load(); seen != kExitHooksDone; seen = g_exit_hooks.load()) {
        if (seen == me) {  // another thread of this process is installing them
            g_exit_hooks.wait(seen);
            continue;
        }
        if (g_exit_hooks.compare_exchange_strong(seen, me)) {  // not begun, or by the parent
            if (void (*hook)() = g_setup_hook.load(); hook != nullptr) {
                hook();
            }
            std::atexit(finish_active_session_at_exit);
            detail::install_abnormal_end_handlers(&finish_active_session_at_exit);
            g_exit_hooks.store(kExitHooksDone);
            g_exit_hooks.notify_all();
            return;
        }
    }
}

void set_active_session(Session* session) {
    g_active_session.store(session);
    run_switch_hook();
}

}  // namespace

SessionStart Session::from_args(int& argc, char** argv) noexcept {
    SessionStart start;
    try {
        auto session = std::make_unique<Session>(argc, argv);
        start.help_shown = session->help_shown();
        if (!start.help_shown) {
            start.session = std::move(session);
        }
    } catch (const std::exception& error) {  // SessionError, or std::bad_alloc
        start.error = error.what();
    }
    return start;
}

Session::Session(int& argc, char** argv)
    : Session(parse_flags(argc, argv, std::getenv("QPROF_FLAGS"))) {}

Session::Session(SessionOptions options) : Session(std::move(options), true) {}

Session::Session(SessionOptions options, bool build_trace) : state_(std::make_unique<State>()) {
    state_->options = std::move(options);
    state_->build_trace = build_trace;
    const SessionOptions& opts = state_->options;
    if (!opts.inherit_flags) {
        ::unsetenv("QPROF_FLAGS");  // before the program can start a child
    }
    if (opts.show_help) {  // the caller decides what follows: see help_shown()
        std::cout << flags_help() << std::flush;
        state_->help_shown = true;
        return;
    }
    if (!opts.profile_queries) {
        detail::warn_unused_flags(opts);
        return;
    }
    for (const std::string& name : opts.reporters) {
        if (!make_reporter(name)) {
            throw FlagError("qprof: unknown reporter '" + name +
                            "'. Valid reporters: " + detail::join(reporter_names(), ", ") + ".");
        }
    }
    if (opts.report.folded_bytes && !opts.record_memory) {
        throw FlagError("qprof: " + std::string{detail::kFoldedBytesNeedMemory} + '.');
    }
    // Resolved now: the program may change directory before the reports are written.
    state_->options.output_dir = detail::absolute_dir(opts.output_dir).string();
    detail::check_output_dir(opts.output_dir);
    state_->files.emplace(opts.output_dir,
                          detail::expand_name(opts.name_pattern, program_invocation_short_name));
    if (QPROF_CONFIG_PROFILING == 0) {
        std::cerr << "qprof: warning: qprof was built with -Dprofiling=disabled, so its macros "
                     "record nothing; rebuild with -Dprofiling=enabled to profile\n";
    }
    try {  // options given in code rather than by flags are checked here
        state_->colours = detail::ColourRules{opts.colours};
    } catch (const std::invalid_argument& error) {
        throw FlagError(std::string{"qprof: bad colour rule in SessionOptions::colours: "} +
                        error.what() + ".");
    }
    state_->clock = detail::choose_clock(opts.clock);
    const detail::RecordingStart start = detail::begin_sole_recording(state_->clock, opts);
    state_->generation = start.generation;
    state_->calibration.start_tick = start.tick;
    state_->start_steady_ns = start.steady_ns;
    state_->run = detail::this_process_run(opts.command_line);
    if (detail::wants_raw(opts)) {
        try {
            state_->raw = detail::open_raw(opts, state_->clock, start, state_->run, state_->colours,
                                           *state_->files);
        } catch (...) {
            detail::end_recording();
            throw;
        }
    }
    state_->collector = std::make_unique<detail::Collector>(start.generation,
                                                            detail::collect_mode(opts, build_trace),
                                                            opts.record_keys, state_->raw.get());
    state_->recording = true;
    state_->pid = ::getpid();
    state_->started = true;
    install_exit_hooks();
    set_active_session(this);
}

Session::~Session() {
    finish();
    if (state_->started && state_->pid != ::getpid()) {
        // A fork()ed child whose parent was finishing the session at the fork: what it holds
        // of the collector is the parent's too (see finish_taken).
        g_forked_collector = state_->collector.release();
        g_forked_raw = state_->raw.release();
    }
}

void Session::finish() {
    if (!state_->started) {
        return;  // never recorded: nothing to finish
    }
    begin_finish();
    Session* expected = this;
    if (g_active_session.compare_exchange_strong(expected, nullptr)) {
        run_switch_hook();
        detail::SessionKnobs::finish_taken(*this);
    }
    end_finish();
    wait_for_finishes();  // exit() may be finishing this session on another thread
}

void detail::SessionKnobs::finish_taken(Session& session) {
    Session::State& s = *session.state_;
    s.recording = false;
    if (s.pid != ::getpid()) {
        // A fork()ed child: the collector thread and the files are the parent's. Destroying
        // them here would wait for a thread this process does not have.
        g_forked_collector = s.collector.release();
        g_forked_raw = s.raw.release();
        return;
    }
    try {
        s.calibration.end_tick = detail::now();
        const std::uint64_t end_steady_ns =  // the manual clock is its own (recorder.cpp)
            s.clock == detail::ClockKind::manual ? s.calibration.end_tick : detail::steady_ns();
        detail::close_open_scopes(s.calibration.end_tick);
        detail::stop_recording();
        s.collector->finish();
        const std::vector<std::string> names = detail::thread_names(s.generation);
        detail::end_recording();
        const std::uint64_t ticks = s.calibration.end_tick - s.calibration.start_tick;
        if (s.clock == detail::ClockKind::tsc && ticks > 0) {
            s.calibration.ns_per_tick =
                static_cast<double>(end_steady_ns - s.start_steady_ns) / static_cast<double>(ticks);
        }
        detail::TraceInputs inputs = s.collector->take_inputs();
        s.collector.reset();
        inputs.thread_names = names;
        inputs.sites = detail::registered_sites();
        s.colours.apply(inputs.sites);
        inputs.calibration = s.calibration;
        inputs.clock = detail::clock_name(s.clock);
        detail::finish_run(s.run);
        inputs.run = s.run;
        inputs.selection = s.options.events;
        s.trace = detail::complete_trace(std::move(inputs));
        // Recorded, even when no scope ran or allocated: its reports show zero bytes, not none.
        s.trace.memory_recorded = s.trace.memory_recorded || s.options.record_memory;
        std::string raw_path;
        if (s.raw) {
            s.raw->finish({s.calibration.end_tick, end_steady_ns, s.calibration.ns_per_tick,
                           s.trace.events, std::move(s.run)},
                          names);
            raw_path = s.raw->failed() ? std::string{} : s.raw->path();
            s.raw.reset();
        }
        if (s.build_trace) {
            s.written = detail::write_reports(s.trace, s.options, *s.files, raw_path);
        }
    } catch (const std::exception& error) {
        std::cerr << "qprof: the profile could not be completed: " << error.what() << '\n';
    }
}

bool Session::recording() const { return state_->recording; }
bool Session::help_shown() const { return state_->help_shown; }
const SessionOptions& Session::options() const { return state_->options; }
const Trace& Session::trace() const { return state_->trace; }
const std::vector<std::string>& Session::written_files() const { return state_->written; }

void testing::set_session_switch_hook(void (*hook)()) { g_switch_hook.store(hook); }
void testing::set_process_setup_hook(void (*hook)()) { g_setup_hook.store(hook); }

std::unique_ptr<Session> testing::session_without_trace(SessionOptions options) {
    return detail::SessionKnobs::without_trace(std::move(options));
}

}  // namespace qprof
