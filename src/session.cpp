// The session: flags in, recording, collector, reports out.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <qprof/config.hpp>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <qprof/trace.hpp>

#include "collector.hpp"
#include "recording_control.hpp"
#include "report_writer.hpp"
#include "text.hpp"
#include "trace_completion.hpp"

namespace qprof {

struct Session::State {
    SessionOptions options;
    bool recording = false;
    bool finished = false;
    std::uint32_t generation = 0;
    detail::ClockKind clock = detail::ClockKind::steady;
    detail::Calibration calibration;
    std::uint64_t start_steady_ns = 0;
    std::unique_ptr<detail::Collector> collector;
    Trace trace;
    std::vector<std::string> written;
};

namespace {

// The session that exit() must finish, since exit() does not unwind main's locals.
std::mutex g_active_mutex;
Session* g_active_session = nullptr;

void finish_active_session_at_exit() {
    Session* session = nullptr;
    {
        std::lock_guard lock{g_active_mutex};
        session = g_active_session;
    }
    if (session != nullptr) {
        session->finish();
    }
}

void set_active_session(Session* session) {
    static const bool registered = (std::atexit(finish_active_session_at_exit), true);
    (void)registered;
    std::lock_guard lock{g_active_mutex};
    g_active_session = session;
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

std::string_view clock_name(detail::ClockKind kind) {
    switch (kind) {
        case detail::ClockKind::tsc:
            return "tsc";
        case detail::ClockKind::steady:
            return "steady";
        case detail::ClockKind::manual:
            return "manual";
    }
    return "unknown";
}

void warn_unused_flags(const SessionOptions& options) {
    const SessionOptions defaults;
    if (options.output_dir != defaults.output_dir || options.clock != defaults.clock ||
        options.report != defaults.report) {
        std::cerr << "qprof: note: -Z profile-queries-dir, -Z profile-clock and the report "
                     "options (-Z profile-queries-important, -folded, -chrome) have no effect "
                     "without -Z profile-queries\n";
    }
}

}  // namespace

Session::Session(int& argc, char** argv)
    : Session([&] {
          SessionOptions options = parse_flags(argc, argv, std::getenv("QPROF_FLAGS"));
          if (options.show_help) {
              std::cout << flags_help();
              std::exit(0);
          }
          return options;
      }()) {}

Session::Session(SessionOptions options) : state_(std::make_unique<State>()) {
    state_->options = std::move(options);
    const SessionOptions& opts = state_->options;
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
    detail::check_output_dir(opts.output_dir);
    if (QPROF_CONFIG_PROFILING == 0) {
        std::cerr << "qprof: warning: qprof was built with -Dprofiling=disabled, so its macros "
                     "record nothing; rebuild with -Dprofiling=enabled to profile\n";
    }
    state_->clock = choose_clock(opts.clock);
    const detail::RecordingStart start = detail::begin_recording(state_->clock, opts.record_keys);
    state_->generation = start.generation;
    state_->calibration.start_tick = start.tick;
    state_->start_steady_ns = start.steady_ns;
    state_->collector =
        std::make_unique<detail::Collector>(start.generation, opts.build_trace, opts.record_keys);
    state_->recording = true;
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
    set_active_session(nullptr);
    s.recording = false;
    try {
        s.calibration.end_tick = detail::now();
        const std::uint64_t end_steady_ns = detail::steady_ns();
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
        s.trace = detail::complete_trace(s.collector->builders(), names, detail::registered_sites(),
                                         s.calibration);
        s.trace.key_texts = std::move(s.collector->key_texts());
        s.trace.clock = clock_name(s.clock);
        s.trace.keys_recorded = s.options.record_keys;
        s.collector.reset();
        if (s.options.build_trace) {
            s.written = detail::write_reports(s.trace, s.options);
        }
    } catch (const std::exception& error) {
        std::cerr << "qprof: the profile could not be completed: " << error.what() << '\n';
    }
}

bool Session::recording() const { return state_->recording; }
const SessionOptions& Session::options() const { return state_->options; }
const Trace& Session::trace() const { return state_->trace; }
const std::vector<std::string>& Session::written_files() const { return state_->written; }

}  // namespace qprof
