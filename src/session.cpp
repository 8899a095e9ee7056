// The session: flags in, recording, collector, reports out.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <qprof/config.hpp>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <qprof/trace.hpp>
#include <stdexcept>

#include "abnormal_end.hpp"
#include "collector.hpp"
#include "colour_classes.hpp"
#include "format.hpp"
#include "raw_writer.hpp"
#include "recording_control.hpp"
#include "report_files.hpp"
#include "report_writer.hpp"
#include "run_info.hpp"
#include "testing.hpp"
#include "text.hpp"
#include "trace_completion.hpp"

namespace qprof {

struct Session::State {
    SessionOptions options;
    bool build_trace = true;  // false only for qprof's benchmarks (src/testing.hpp)
    bool help_shown = false;
    bool recording = false;
    bool finished = false;
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
std::atomic<Session*> g_active_session{nullptr};
static_assert(std::atomic<Session*>::is_always_lock_free);
std::atomic<void (*)()> g_switch_hook{nullptr};  // src/testing.hpp

// What a fork()ed child inherited of its parent's recording: kept, never destroyed.
detail::Collector* g_forked_collector = nullptr;
detail::RawWriter* g_forked_raw = nullptr;

void finish_active_session_at_exit() {
    Session* const session = g_active_session.load();
    if (session != nullptr) {
        session->finish();
    }
}

void set_active_session(Session* session) {
    static const bool registered =
        (std::atexit(finish_active_session_at_exit),
         detail::install_abnormal_end_handlers(&finish_active_session_at_exit), true);
    (void)registered;
    if (void (*hook)() = g_switch_hook.load(); hook != nullptr) {
        hook();
    }
    g_active_session.store(session);
}

detail::ClockKind choose_clock(ClockChoice choice) {
    if (detail::manual_clock_is_set()) {
        return detail::ClockKind::manual;
    }
    const bool tsc_usable = detail::tsc_is_usable();
    if (choice == ClockChoice::tsc && !tsc_usable) {
        throw FlagError(
            "qprof: '-Z profile-clock=tsc' needs a CPU with an invariant time-stamp counter, "
            "and this one has none. Use '-Z profile-clock=steady' (or leave the flag out).");
    }
    if (choice == ClockChoice::steady || !tsc_usable) {
        return detail::ClockKind::steady;
    }
    return detail::ClockKind::tsc;
}

void warn_unused_flags(const SessionOptions& options) {
    const SessionOptions defaults;
    if (options.output_dir != defaults.output_dir || options.clock != defaults.clock ||
        options.report != defaults.report || options.name_pattern != defaults.name_pattern) {
        std::cerr << "qprof: note: -Z profile-queries-dir, -Z profile-queries-name, -Z "
                     "profile-clock and the report options (-Z profile-queries-important, "
                     "-folded, -chrome) have no effect without -Z profile-queries\n";
    }
}

bool wants_raw(const SessionOptions& options) {
    return std::find(options.reporters.begin(), options.reporters.end(), detail::kRawReporter) !=
           options.reporters.end();
}

detail::CollectMode collect_mode(const SessionOptions& options, bool build_trace) {
    if (!build_trace) {  // measuring the recorder; a raw stream still needs its keys
        return wants_raw(options) ? detail::CollectMode::totals : detail::CollectMode::none;
    }
    // With no report at all, the trace is what the program reads (Session::trace()).
    const bool totals_only =
        !options.reporters.empty() &&
        std::none_of(options.reporters.begin(), options.reporters.end(),
                     [](const std::string& name) { return make_reporter(name)->needs_nodes(); });
    return totals_only ? detail::CollectMode::totals : detail::CollectMode::trees;
}

std::unique_ptr<detail::RawWriter> open_raw(const SessionOptions& options, detail::ClockKind clock,
                                            const detail::RecordingStart& start, const RunInfo& run,
                                            const detail::ColourRules& colours,
                                            detail::ReportFiles& files) {
    std::string path;
    const int fd = files.create(make_reporter(detail::kRawReporter)->file_suffix(), path);
    if (fd < 0) {
        throw OutputError("qprof: cannot create " + path + ": " + std::strerror(errno) +
                          ". Choose a writable directory with '-Z profile-queries-dir=PATH'.");
    }
    const detail::RawSession session{
        .block = {.start_tick = start.tick,
                  .start_steady_ns = start.steady_ns,
                  .clock = clock,
                  .keys = options.record_keys,
                  .report = options.report,
                  .process = run},
        .selection = options.events,
        .colours = &colours,
    };
    try {
        return std::make_unique<detail::RawWriter>(fd, path, session);
    } catch (const std::runtime_error& error) {
        throw OutputError(std::string{"qprof: "} + error.what() +
                          ". Choose a writable directory with '-Z profile-queries-dir=PATH'.");
    }
}

// The stem of the report files; the program name as a file name (no '/', no control bytes).
std::string expand_name(const std::string& pattern, std::string program) {
    for (char& c : program) {
        if (c == '/' || detail::is_control_char(static_cast<unsigned char>(c))) {
            c = '_';
        }
    }
    try {
        return detail::expand_name_pattern(pattern, program, ::getpid(), std::time(nullptr));
    } catch (const std::invalid_argument& error) {
        throw FlagError(std::string{"qprof: bad report name '"} + pattern + "': " + error.what() +
                        ".");
    }
}

// begin_recording refuses a second session with std::logic_error; users catch SessionError.
detail::RecordingStart begin_sole_recording(detail::ClockKind clock, const SessionOptions& opts) {
    try {
        return detail::begin_recording(clock, opts.record_keys, opts.record_memory, opts.events);
    } catch (const std::logic_error& error) {
        throw SessionError(std::string{error.what()} +
                           ". Let the first qprof::Session end (or call its finish()) before "
                           "creating the next.");
    }
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
        warn_unused_flags(opts);
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
                          expand_name(opts.name_pattern, program_invocation_short_name));
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
    state_->clock = choose_clock(opts.clock);
    const detail::RecordingStart start = begin_sole_recording(state_->clock, opts);
    state_->generation = start.generation;
    state_->calibration.start_tick = start.tick;
    state_->start_steady_ns = start.steady_ns;
    state_->run = detail::this_process_run(opts.command_line);
    if (wants_raw(opts)) {
        try {
            state_->raw =
                open_raw(opts, state_->clock, start, state_->run, state_->colours, *state_->files);
        } catch (...) {
            detail::end_recording();
            throw;
        }
    }
    state_->collector = std::make_unique<detail::Collector>(
        start.generation, collect_mode(opts, build_trace), opts.record_keys, state_->raw.get());
    state_->recording = true;
    state_->pid = ::getpid();
    set_active_session(this);
}

Session::~Session() { finish(); }

void Session::finish() {
    State& s = *state_;
    if (s.finished || !s.recording) {
        s.finished = true;
        return;
    }
    s.finished = true;
    s.recording = false;
    if (s.pid != ::getpid()) {
        // A fork()ed child: the collector thread and the files are the parent's. Destroying
        // them here would wait for a thread this process does not have.
        g_forked_collector = s.collector.release();
        g_forked_raw = s.raw.release();
        return;
    }
    set_active_session(nullptr);
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

namespace detail {

// The one way to the private constructor: src/testing.hpp.
struct SessionKnobs {
    static std::unique_ptr<Session> without_trace(SessionOptions options) {
        return std::unique_ptr<Session>(new Session(std::move(options), false));
    }
};

}  // namespace detail

void testing::set_session_switch_hook(void (*hook)()) { g_switch_hook.store(hook); }

std::unique_ptr<Session> testing::session_without_trace(SessionOptions options) {
    return detail::SessionKnobs::without_trace(std::move(options));
}

}  // namespace qprof
