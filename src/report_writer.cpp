#include "report_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <qprof/reporter.hpp>
#include <sstream>

#include "format.hpp"
#include "raw_writer.hpp"
#include "text.hpp"

namespace qprof::detail {

namespace fs = std::filesystem;

namespace {

// Why mkdir of `dir` failed with `error`, in words that fit a file system that refuses new
// directories (/proc says ENOENT for a parent that plainly exists).
std::string why_no_directory(const fs::path& dir, const std::error_code& error) {
    std::error_code ignored;
    fs::path parent = dir.parent_path();
    while (!parent.empty() && !fs::exists(parent, ignored) && parent != parent.parent_path()) {
        parent = parent.parent_path();
    }
    if (error == std::errc::no_such_file_or_directory && fs::is_directory(parent, ignored)) {
        // Appended, not "'" + ...: g++ 12 -O2 warns falsely (-Wrestrict) on that form here.
        std::string why = "'";
        why += parent.string();
        why += "' does not allow new directories in it";
        return why;
    }
    return error.message();
}

// Empty when `dir` exists (or can be made) and a file can be created in it. The probe is
// created exclusively, so a planted symbolic link is never followed.
std::string why_not_writable(const fs::path& dir) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) {
        return why_no_directory(dir, error);
    }
    if (!fs::is_directory(dir, error)) {
        return "not a directory";
    }
    const std::string probe = (dir / (".qprof-write-test-" + std::to_string(::getpid()))).string();
    const int fd = create_exclusive(probe, 0600);
    if (fd < 0) {
        return std::strerror(errno);
    }
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

// One report's fate: written to `path`, or not, because the files refused it (another
// directory may take it) or because the reporter itself failed (no directory would help).
struct Written {
    std::string path;
    bool reporter_failed = false;
};

// Writes one report, telling on stderr why when it cannot.
Written write_report(const Trace& trace, Reporter& reporter, ReportFiles& files) {
    try {
        return {files.publish(reporter.file_suffix(),
                              [&](std::ostream& out) { reporter.write(trace, out); })};
    } catch (const std::exception& error) {
        std::cerr << "qprof: reporter '" << reporter.name() << "' failed: " << error.what() << '\n';
        return {.path = {}, .reporter_failed = true};
    }
}

std::string summary(const Trace& trace) {
    std::ostringstream text;
    const std::size_t threads = trace.threads.size();
    const std::uint64_t events = trace.events;
    text << count_text(events, "event", "events") << " on " << threads
         << (threads == 1 ? " thread" : " threads") << " in " << seconds_text(trace.wall_ns)
         << " s";
    return text.str();
}

}  // namespace

fs::path absolute_dir(const std::string& dir) {
    std::error_code error;
    fs::path path = fs::absolute(dir.empty() ? fs::path{"."} : fs::path{dir}, error);
    path = (error ? fs::path{dir} : path).lexically_normal();
    // "/home/me/." normalises to "/home/me/": the messages name the directory without the '/'
    if (!path.has_filename() && path.has_relative_path()) {
        path = path.parent_path();
    }
    return path;
}

void check_output_dir(const std::string& dir, std::string_view fix) {
    const std::string reason = why_not_writable(dir);
    if (!reason.empty()) {
        throw OutputError("qprof: cannot write reports to '" + dir + "': " + reason + ". " +
                          std::string(fix));
    }
}

std::vector<std::string> write_reports(const Trace& trace, const SessionOptions& options,
                                       ReportFiles& files, const std::string& raw_path,
                                       std::string_view done) {
    if (trace.events == 0 && trace.sizes.empty() && trace.counters.empty()) {
        std::cerr << "qprof: no query was recorded. Are the PROFILE_* macros compiled in "
                     "(not built with -Dprofiling=disabled or QPROF_ENABLED 0) and reached "
                     "while the session lives?\n";
    }
    std::vector<std::string> written;
    std::optional<ReportFiles> fallback;
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
        Written report = write_report(trace, *reporter, files);
        if (report.path.empty() && !report.reporter_failed && !private_fallback_dir().empty()) {
            if (!fallback) {
                fallback.emplace(private_fallback_dir(), files.stem());
            }
            report = write_report(trace, *reporter, *fallback);
            if (!report.path.empty()) {
                std::cerr << "qprof: wrote " << report.path << " instead\n";
            }
        }
        if (!report.path.empty()) {
            written.push_back(report.path);
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
