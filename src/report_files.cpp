#include "report_files.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <streambuf>

namespace qprof::detail {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxAttempts = 100;

// An output buffer over a file descriptor, which it does not own; remembers the first error.
class FdBuffer : public std::streambuf {
  public:
    explicit FdBuffer(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }
    int error() const { return error_; }

    int sync() override { return drain() ? 0 : -1; }
    int_type overflow(int_type c) override {
        if (!drain()) {
            return traits_type::eof();
        }
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }

  private:
    bool drain() {
        const char* next = pbase();
        while (error_ == 0 && next < pptr()) {
            const ssize_t wrote = ::write(fd_, next, static_cast<std::size_t>(pptr() - next));
            if (wrote < 0 && errno != EINTR) {
                error_ = errno;
            } else if (wrote > 0) {
                next += wrote;
            }
        }
        setp(buffer_, buffer_ + sizeof buffer_);
        return error_ == 0;
    }

    int fd_;
    int error_ = 0;
    char buffer_[64 << 10];
};

// A temporary file next to `final_path`, created exclusively; its path is set in `path`.
int create_temporary(const fs::path& final_path, std::string& path) {
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
        std::string name = final_path.filename().string();  // appended: g++ 12 -O2 warned falsely
        name.insert(0, 1, '.');
        name += ".tmp-";
        name += std::to_string(::getpid());
        name += '-';
        name += std::to_string(counter.fetch_add(1));
        path = (final_path.parent_path() / name).string();
        const int fd = create_exclusive(path, 0644);
        if (fd >= 0 || errno != EEXIST) {
            return fd;
        }
    }
    errno = EEXIST;
    return -1;
}

// Gives `from` the name `to` unless `to` exists; `from` is gone afterwards on success.
bool link_without_clobbering(const std::string& from, const fs::path& to) {
    if (::link(from.c_str(), to.c_str()) == 0) {
        ::unlink(from.c_str());
        return true;
    }
    if (errno == EEXIST) {
        return false;
    }
    // A file system without hard links: rename, still refusing to replace a file.
    return ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0;
}

std::string start_time_text(std::time_t start) {
    std::tm local{};
    ::localtime_r(&start, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &local);
    return text;
}

}  // namespace

std::string expand_name_pattern(std::string_view pattern, std::string_view program, pid_t pid,
                                std::time_t start) {
    std::string name;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%') {
            name += pattern[i];
            continue;
        }
        const char code = i + 1 < pattern.size() ? pattern[++i] : '\0';
        switch (code) {
            case 'n':
                name += program.empty() ? "program" : program;
                break;
            case 'p':
                name += std::to_string(pid);
                break;
            case 't':
                name += start_time_text(start);
                break;
            case '%':
                name += '%';
                break;
            default:
                throw std::invalid_argument(
                    std::string{"'%"} + (code == '\0' ? "" : std::string(1, code)) +
                    "' is not one of %n (program name), %p (process id), %t (start time), %%");
        }
    }
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
        throw std::invalid_argument("the name '" + name +
                                    "' is not a file name (empty, '.', '..' or holding '/')");
    }
    return name;
}

const fs::path& private_fallback_dir() {
    static std::once_flag once;
    static fs::path dir;
    std::call_once(once, [] {
        const char* tmpdir = std::getenv("TMPDIR");
        std::string templ =
            std::string{tmpdir != nullptr && *tmpdir == '/' ? tmpdir : "/tmp"} + "/qprof-XXXXXX";
        if (::mkdtemp(templ.data()) == nullptr) {  // mode 0700, a fresh name
            std::cerr << "qprof: cannot make a private temporary directory " << templ << ": "
                      << std::strerror(errno) << '\n';
            return;
        }
        dir = templ;
    });
    return dir;
}

ReportFiles::ReportFiles(fs::path dir, std::string stem, Existing existing)
    : dir_(std::move(dir)),
      stem_(std::move(stem)),
      first_stem_(stem_),
      replace_(existing == Existing::replace) {}

fs::path ReportFiles::path_for(std::string_view suffix) const {
    return dir_ / (stem_ + "." + std::string(suffix));
}

std::string ReportFiles::next_stem(int attempt) const {
    // The numbers after the pid are drawn process-wide: a process that starts many sessions
    // into one directory takes the next free number, rather than trying the taken ones again
    // until it runs out of attempts.
    static std::atomic<int> next_number{2};
    std::string stem = first_stem_ + "-" + std::to_string(::getpid());
    return attempt <= 1 ? stem : stem + "-" + std::to_string(next_number.fetch_add(1));
}

void ReportFiles::say_renamed(const fs::path& wanted, const std::string& got) const {
    std::cerr << "qprof: " << wanted.string() << " already exists (another run's?); writing " << got
              << " instead\n";
}

bool ReportFiles::claim_free_name(std::string_view suffix,
                                  const std::function<bool(const fs::path&)>& claim,
                                  std::string& path) {
    const fs::path wanted = path_for(suffix);
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
        if (attempt > 0) {
            stem_ = next_stem(attempt);
        }
        path = path_for(suffix).string();
        if (claim(path)) {
            if (attempt > 0) {
                say_renamed(wanted, path);
            }
            return true;
        }
        if (errno != EEXIST) {
            return false;
        }
    }
    errno = EEXIST;
    return false;
}

int create_exclusive(const fs::path& path, mode_t mode) {
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

int ReportFiles::create(std::string_view suffix, std::string& path) {
    int fd = -1;
    claim_free_name(
        suffix,
        [&fd](const fs::path& name) {
            fd = create_exclusive(name, 0644);
            return fd >= 0;
        },
        path);
    return fd;
}

std::string ReportFiles::publish(std::string_view suffix,
                                 const std::function<void(std::ostream&)>& write) {
    const fs::path wanted = path_for(suffix);
    std::string temporary;
    const int fd = create_temporary(wanted, temporary);
    if (fd < 0) {
        std::cerr << "qprof: cannot write " << wanted.string() << ": " << std::strerror(errno)
                  << '\n';
        return {};
    }
    FdBuffer buffer{fd};
    std::ostream out{&buffer};
    try {
        write(out);
    } catch (...) {  // the reporter's exception is the caller's to tell; leave nothing behind
        ::close(fd);
        ::unlink(temporary.c_str());
        throw;
    }
    out.flush();
    const int write_error = buffer.error();
    if (::close(fd) != 0 || write_error != 0 || !out) {
        const int error = write_error != 0 ? write_error : errno;
        ::unlink(temporary.c_str());
        std::cerr << "qprof: writing " << wanted.string()
                  << " failed: " << std::strerror(error != 0 ? error : EIO) << '\n';
        return {};
    }
    if (replace_) {  // rename() replaces the name itself, never writes through a link
        if (::rename(temporary.c_str(), wanted.c_str()) == 0) {
            return wanted.string();
        }
    }
    std::string path;
    if (!replace_ &&
        claim_free_name(
            suffix,
            [&temporary](const fs::path& name) { return link_without_clobbering(temporary, name); },
            path)) {
        return path;
    }
    const int error = errno;
    ::unlink(temporary.c_str());
    std::cerr << "qprof: cannot name " << wanted.string() << ": " << std::strerror(error) << '\n';
    return {};
}

}  // namespace qprof::detail
