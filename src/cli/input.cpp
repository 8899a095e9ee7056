#include "input.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "format.hpp"
#include "progress.hpp"
#include "raw_format.hpp"
#include "raw_reader.hpp"
#include "trace_merge.hpp"

namespace qprof::cli {

namespace {

// Reads `fd` to its end, at most `limit` bytes; stops after the first bytes when they are not
// the magic, so that the reader refuses a foreign input (a terminal, /dev/zero) at once.
std::string read_bounded(int fd, std::size_t limit) {
    std::string bytes;
    char buffer[1 << 16];
    while (true) {
        const std::size_t want = bytes.size() < detail::raw::kMagic.size()
                                     ? detail::raw::kMagic.size() - bytes.size()
                                     : sizeof buffer;
        const ssize_t got = ::read(fd, buffer, want);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            throw std::runtime_error(std::string{"cannot read it: "} + std::strerror(errno));
        }
        if (got == 0) {
            return bytes;
        }
        bytes.append(buffer, static_cast<std::size_t>(got));
        const std::size_t seen = std::min(bytes.size(), detail::raw::kMagic.size());
        if (std::memcmp(bytes.data(), detail::raw::kMagic.data(), seen) != 0) {
            return bytes;  // not a stream: the reader says so at byte 0
        }
        if (bytes.size() > limit) {
            throw std::runtime_error(
                "it is not a regular file and holds more than " + detail::with_thousands(limit) +
                " bytes, the most qprof reads from a pipe or a device; save it to a file first");
        }
    }
}

void print_diagnostic(std::ostream& out, const std::string& path,
                      const detail::Diagnostic& diagnostic) {
    const bool error = diagnostic.severity == detail::Diagnostic::Severity::error;
    out << "qprof: " << (error ? "error: " : "warning: ") << path << ": byte " << diagnostic.offset
        << ": " << diagnostic.text << '\n';
}

// A merged trace names its program when every run shares it, and no pid.
void name_program(Trace& trace) {
    if (trace.runs.size() <= 1) {
        return;
    }
    const std::string& program = trace.runs.front().program;
    const bool one_program =
        std::all_of(trace.runs.begin(), trace.runs.end(),
                    [&](const RunInfo& run) { return run.program == program; });
    trace.program = one_program ? program : std::string{};
    trace.pid = 0;
}

}  // namespace

InputFile::InputFile(std::string path, std::size_t unmapped_limit) : path_(std::move(path)) {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw std::runtime_error(std::string{"cannot open it: "} + std::strerror(errno));
    }
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
        ::close(fd);
        throw std::runtime_error("it is a directory (expected a .qprof file)");
    }
    if (S_ISREG(info.st_mode) && info.st_size > 0) {
        void* map =
            ::mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            data_ = static_cast<const unsigned char*>(map);
            size_ = static_cast<std::size_t>(info.st_size);
            mapped_ = true;
        }
    }
    if (!mapped_) {  // a pipe, a device, an empty file, or a mapping refused
        try {
            copy_ = read_bounded(fd, unmapped_limit);
        } catch (...) {
            ::close(fd);
            throw;
        }
        data_ = reinterpret_cast<const unsigned char*>(copy_.data());
        size_ = copy_.size();
    }
    ::close(fd);
}

InputFile::~InputFile() {
    if (mapped_) {
        ::munmap(const_cast<unsigned char*>(data_), size_);
    }
}

void InputFile::release_before(std::size_t offset) const {
    static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t bytes = std::min(offset, size_) / page * page;
    if (mapped_ && bytes > 0) {
        ::madvise(const_cast<unsigned char*>(data_), bytes, MADV_DONTNEED);
    }
}

void print_error(const std::string& path, const std::string& message) {
    print_error(std::cerr, path, message);
}

void print_error(std::ostream& out, const std::string& path, const std::string& message) {
    out << "qprof: error: " << path << ": " << message << '\n';
}

int checked_stdout(int status) {
    errno = 0;
    std::cout.flush();
    if (std::cout) {
        return status;
    }
    int error = errno;
    if (error == 0 && ::write(STDOUT_FILENO, "\n", 1) != 1) {
        // The write that failed was an earlier one, inside the stream: ask the descriptor
        // once more for the reason. (The output is incomplete already; a line break more at
        // its end changes nothing.)
        error = errno;
    }
    std::cerr << "qprof: error: the output could not be written to standard output"
              << (error != 0 ? std::string{" ("} + std::strerror(error) + ")" : std::string{})
              << "; it is incomplete\n";
    return kExitFailed;
}

LoadedTrace load_trace(const std::string& path, const LoadOptions& options) {
    try {
        const InputFile file{path};
        return load_trace(file, options);
    } catch (const std::exception& error) {
        print_error(options.messages != nullptr ? *options.messages : std::cerr, path,
                    error.what());
    }
    LoadedTrace failed;
    failed.status = kExitFailed;
    return failed;
}

LoadedTrace load_trace(const InputFile& file, const LoadOptions& options) {
    std::ostream& messages = options.messages != nullptr ? *options.messages : std::cerr;
    const std::string& path = file.path();
    LoadedTrace loaded;
    loaded.status = kExitFailed;
    try {
        Progress progress{
            "reading " + path, file.bytes().size(),
            Progress::wanted(file.bytes().size(), options.quiet || !options.progress)};
        detail::ReadOptions read_options{.keep_nodes = options.keep_nodes,
                                         .progress = [&](std::uint64_t done) {
                                             progress.update(done);
                                             file.release_before(done);
                                         }};
        detail::ReadResult read = detail::read_stream(file.bytes(), read_options);
        progress.finish();
        for (const detail::Diagnostic& diagnostic : read.diagnostics) {
            if (!options.quiet || diagnostic.severity == detail::Diagnostic::Severity::error) {
                print_diagnostic(messages, path, diagnostic);
            }
        }
        if (read.runs.empty()) {
            return loaded;
        }
        std::vector<Trace> traces;
        for (detail::RecordedRun& run : read.runs) {
            traces.push_back(detail::complete_trace(std::move(run.inputs)));
        }
        loaded.report = read.runs.front().report;
        loaded.runs = static_cast<std::uint32_t>(read.runs.size());
        loaded.trace = detail::merge_traces(std::move(traces));
        name_program(loaded.trace);
        loaded.status = read.damaged ? kExitPartial : kExitOk;
    } catch (const std::exception& error) {
        print_error(messages, path, error.what());
    }
    return loaded;
}

}  // namespace qprof::cli
