#include "run_info.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <fstream>
#include <iterator>
#include <optional>

#include "testing.hpp"

namespace qprof::detail {

namespace {

std::optional<RunInfo> g_manual_run;  // src/testing.hpp

std::string working_directory() {
    std::string path(PATH_MAX, '\0');
    while (::getcwd(path.data(), path.size()) == nullptr) {
        if (errno != ERANGE) {
            return {};  // removed, or not readable: the run still records
        }
        path.resize(path.size() * 2);
    }
    path.resize(path.find('\0'));
    return path;
}

std::string host_name() {
    char name[HOST_NAME_MAX + 1] = {};
    if (::gethostname(name, sizeof name - 1) != 0) {
        return {};
    }
    return name;
}

std::vector<std::string> proc_cmdline() {
    std::ifstream in{"/proc/self/cmdline", std::ios::binary};
    const std::string bytes{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
    return split_cmdline(bytes);
}

}  // namespace

std::int64_t unix_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::vector<std::string> split_cmdline(std::string_view bytes) {
    std::vector<std::string> arguments;
    while (!bytes.empty()) {
        const std::size_t end = bytes.find('\0');
        arguments.emplace_back(bytes.substr(0, end));
        bytes.remove_prefix(end == std::string_view::npos ? bytes.size() : end + 1);
    }
    return arguments;
}

RunInfo this_process_run(std::vector<std::string> argv) {
    if (g_manual_run) {
        return *g_manual_run;
    }
    RunInfo run;
    run.program = program_invocation_short_name;
    run.argv = argv.empty() ? proc_cmdline() : std::move(argv);
    run.pid = static_cast<std::uint32_t>(::getpid());
    run.parent_pid = static_cast<std::uint32_t>(::getppid());
    run.working_directory = working_directory();
    run.host = host_name();
    run.start_unix_ns = unix_now_ns();
    return run;
}

void finish_run(RunInfo& run) {
    if (g_manual_run) {
        run.end_unix_ns = g_manual_run->end_unix_ns;
        run.peak_rss_bytes = g_manual_run->peak_rss_bytes;
        return;
    }
    run.end_unix_ns = unix_now_ns();
    struct rusage usage {};
    if (::getrusage(RUSAGE_SELF, &usage) == 0 && usage.ru_maxrss > 0) {
        run.peak_rss_bytes = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
    }
}

}  // namespace qprof::detail

void qprof::testing::set_manual_run(std::optional<RunInfo> run) {
    detail::g_manual_run = std::move(run);
}
