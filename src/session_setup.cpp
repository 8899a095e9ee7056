// What a session decides from its options before it records (session_setup.hpp).
#include "session_setup.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <iostream>
#include <qprof/reporter.hpp>
#include <stdexcept>

#include "format.hpp"
#include "manual_clock.hpp"
#include "text.hpp"

namespace qprof::detail {

ClockKind choose_clock(ClockChoice choice) {
    if (manual_clock_is_set()) {
        return ClockKind::manual;
    }
    const bool tsc_usable = tsc_is_usable();
    if (choice == ClockChoice::tsc && !tsc_usable) {
        throw FlagError(
            "qprof: '-Z profile-clock=tsc' needs a CPU with an invariant time-stamp counter, "
            "and this one has none. Use '-Z profile-clock=steady' (or leave the flag out).");
    }
    if (choice == ClockChoice::steady || !tsc_usable) {
        return ClockKind::steady;
    }
    return ClockKind::tsc;
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
    return std::find(options.reporters.begin(), options.reporters.end(), kRawReporter) !=
           options.reporters.end();
}

CollectMode collect_mode(const SessionOptions& options, bool build_trace) {
    if (!build_trace) {  // measuring the recorder; a raw stream still needs its keys
        return wants_raw(options) ? CollectMode::totals : CollectMode::none;
    }
    // With no report at all, the trace is what the program reads (Session::trace()).
    const bool totals_only =
        !options.reporters.empty() &&
        std::none_of(options.reporters.begin(), options.reporters.end(),
                     [](const std::string& name) { return make_reporter(name)->needs_nodes(); });
    return totals_only ? CollectMode::totals : CollectMode::trees;
}

std::unique_ptr<RawWriter> open_raw(const SessionOptions& options, ClockKind clock,
                                    const RecordingStart& start, const RunInfo& run,
                                    const ColourRules& colours, ReportFiles& files) {
    std::string path;
    const int fd = files.create(make_reporter(kRawReporter)->file_suffix(), path);
    if (fd < 0) {
        throw OutputError("qprof: cannot create " + path + ": " + std::strerror(errno) +
                          ". Choose a writable directory with '-Z profile-queries-dir=PATH'.");
    }
    const RawSession session{
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
        return std::make_unique<RawWriter>(fd, path, session);
    } catch (const std::runtime_error& error) {
        throw OutputError(std::string{"qprof: "} + error.what() +
                          ". Choose a writable directory with '-Z profile-queries-dir=PATH'.");
    }
}

std::string expand_name(const std::string& pattern, std::string program) {
    for (char& c : program) {
        if (c == '/' || is_control_char(static_cast<unsigned char>(c))) {
            c = '_';
        }
    }
    try {
        return expand_name_pattern(pattern, program, ::getpid(), std::time(nullptr));
    } catch (const std::invalid_argument& error) {
        throw FlagError(std::string{"qprof: bad report name '"} + pattern + "': " + error.what() +
                        ".");
    }
}

RecordingStart begin_sole_recording(ClockKind clock, const SessionOptions& opts) {
    try {
        return begin_recording(clock, opts.record_keys, opts.record_memory, opts.events);
    } catch (const std::logic_error& error) {
        throw SessionError(std::string{error.what()} +
                           ". Let the first qprof::Session end (or call its finish()) before "
                           "creating the next.");
    }
}

}  // namespace qprof::detail
