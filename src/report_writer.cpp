#include "report_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <qprof/reporter.hpp>
#include <sstream>

#include "builtin_reporters.hpp"
#include "text.hpp"

namespace qprof::detail {

namespace fs = std::filesystem;

namespace {

// Empty when `dir` exists (or can be made) and a file can be created in it.
std::string why_not_writable(const fs::path& dir) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) {
        return error.message();
    }
    const fs::path probe = dir / (".qprof-write-test-" + std::to_string(::getpid()));
    std::ofstream file{probe};
    if (!file) {
        return std::strerror(errno);
    }
    file.close();
    fs::remove(probe, error);
    return {};
}

// Writes one report; returns the path written, or an empty string after telling why not.
std::string write_report(const Trace& trace, Reporter& reporter, const fs::path& dir) {
    const fs::path path = report_path(dir, reporter);
    std::ofstream out{path, std::ios::binary};
    if (!out) {
        std::cerr << "qprof: cannot write " << path.string() << ": " << std::strerror(errno)
                  << '\n';
        return {};
    }
    try {
        reporter.write(trace, out);
    } catch (const std::exception& error) {
        std::cerr << "qprof: reporter '" << reporter.name() << "' failed: " << error.what() << '\n';
        return {};
    }
    out.close();
    if (!out) {
        std::cerr << "qprof: writing " << path.string() << " failed: " << std::strerror(errno)
                  << '\n';
        return {};
    }
    return path.string();
}

std::string summary(const Trace& trace) {
    std::ostringstream text;
    const std::size_t threads = trace.threads.size();
    const std::uint64_t events = trace.events;
    text << with_thousands(events) << (events == 1 ? " event on " : " events on ") << threads
         << (threads == 1 ? " thread" : " threads") << " in " << std::fixed;
    text.precision(3);
    text << static_cast<double>(trace.wall_ns) / 1e9 << " s";
    return text.str();
}

}  // namespace

fs::path report_path(const fs::path& dir, const Reporter& reporter) {
    return (dir / ("profile_queries." + std::string(reporter.file_suffix()))).lexically_normal();
}

void check_output_dir(const std::string& dir) {
    const std::string reason = why_not_writable(dir);
    if (!reason.empty()) {
        throw FlagError("qprof: cannot write reports to '" + dir + "': " + reason +
                        ". Choose a writable directory with '-Z profile-queries-dir=PATH'.");
    }
}

std::vector<std::string> write_reports(const Trace& trace, const SessionOptions& options,
                                       const std::string& raw_path, std::string_view done) {
    if (trace.events == 0) {
        std::cerr << "qprof: no query was recorded. Are the PROFILE_* macros compiled in "
                     "(not built with -Dprofiling=disabled or QPROF_ENABLED 0) and reached "
                     "while the session lives?\n";
    }
    std::vector<std::string> written;
    fs::path fallback;
    for (const std::string& name : options.reporters) {
        if (name == kRawReporter) {
            if (!raw_path.empty()) {
                written.push_back(raw_path);
            }
            continue;
        }
        std::unique_ptr<Reporter> reporter = make_reporter(name);
        if (!reporter) {
            continue;
        }
        reporter->configure(options.report);
        std::string path = write_report(trace, *reporter, options.output_dir);
        if (path.empty()) {
            std::error_code error;
            if (fallback.empty()) {
                fallback = fs::temp_directory_path(error) / ("qprof-" + std::to_string(::getpid()));
            }
            if (why_not_writable(fallback).empty()) {
                path = write_report(trace, *reporter, fallback);
                if (!path.empty()) {
                    std::cerr << "qprof: wrote " << path << " instead\n";
                }
            }
        }
        if (!path.empty()) {
            written.push_back(path);
        }
    }
    std::cerr << "qprof: " << done << ' ' << summary(trace) << "; "
              << (options.reporters.empty() ? "no report was asked for"
                  : written.empty()         ? "no report could be written"
                                            : "wrote " + join(written, ", "))
              << '\n';
    return written;
}

}  // namespace qprof::detail
