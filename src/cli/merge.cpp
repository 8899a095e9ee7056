#include "merge.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <string_view>
#include <thread>
#include <utility>

#include "input.hpp"
#include "progress.hpp"
#include "raw_cursor.hpp"
#include "raw_format.hpp"

namespace qprof::cli {

namespace {

// Inputs checked ahead of the one being written, per worker: enough to keep every worker
// busy while the writer copies, few enough that memory holds a handful of files.
constexpr std::size_t kAheadPerWorker = 4;

// One input, read whole; its bytes stay mapped until they are written.
struct CheckedInput {
    std::unique_ptr<InputFile> file;  // null: refused (the reason is in `messages`)
    std::string messages;             // what reading it told, said when its turn comes
    std::uint32_t flags = 0;
    std::uint32_t header_bytes = 0;
    std::uint32_t runs = 0;
    std::uint64_t events = 0;
};

CheckedInput check_input(const std::string& path) {
    CheckedInput input;
    std::ostringstream messages;
    try {
        auto file = std::make_unique<InputFile>(path);
        const LoadedTrace loaded =
            load_trace(*file, {.keep_nodes = false, .progress = false, .messages = &messages});
        if (loaded.status == kExitOk) {
            detail::raw::BlockCursor cursor{file->bytes()};  // read whole above: sound
            input.flags = cursor.read_file_header().flags;
            input.header_bytes = static_cast<std::uint32_t>(cursor.offset());
            input.runs = loaded.runs;
            input.events = loaded.trace.events;
            input.file = std::move(file);
        } else {
            print_error(messages, path,
                        "not merged: only complete runs can be merged (the problem is above)");
        }
    } catch (const std::exception& error) {
        print_error(messages, path, error.what());
    }
    input.messages = messages.str();
    return input;
}

// Workers check the inputs in order, at most `ahead` past the one the writer takes next; the
// writer takes them in order.
class CheckedInputs {
  public:
    CheckedInputs(const std::vector<std::string>& paths, unsigned workers)
        : paths_(paths), checked_(paths.size()), ahead_(kAheadPerWorker * workers) {
        for (unsigned i = 0; i < workers; ++i) {
            workers_.emplace_back([this] { work(); });
        }
    }

    ~CheckedInputs() {
        {
            const std::lock_guard lock{mutex_};
            stopping_ = true;
        }
        changed_.notify_all();
        for (std::thread& worker : workers_) {
            worker.join();
        }
    }

    CheckedInputs(const CheckedInputs&) = delete;
    CheckedInputs& operator=(const CheckedInputs&) = delete;

    // Input `index`, once checked; each is taken once, in order.
    CheckedInput take(std::size_t index) {
        std::unique_lock lock{mutex_};
        changed_.wait(lock, [&] { return checked_[index].has_value(); });
        CheckedInput input = std::move(*checked_[index]);
        checked_[index].reset();
        taken_ = index + 1;
        lock.unlock();
        changed_.notify_all();
        return input;
    }

  private:
    void work() {
        while (true) {
            std::unique_lock lock{mutex_};
            changed_.wait(lock, [&] {
                return stopping_ || next_ == paths_.size() || next_ < taken_ + ahead_;
            });
            if (stopping_ || next_ == paths_.size()) {
                return;
            }
            const std::size_t index = next_++;
            lock.unlock();
            CheckedInput input = check_input(paths_[index]);
            lock.lock();
            checked_[index] = std::move(input);
            lock.unlock();
            changed_.notify_all();
        }
    }

    const std::vector<std::string>& paths_;
    std::vector<std::optional<CheckedInput>> checked_;
    const std::size_t ahead_;
    std::size_t next_ = 0;   // the next input a worker checks
    std::size_t taken_ = 0;  // inputs the writer has taken
    bool stopping_ = false;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::thread> workers_;  // last: they start once the rest is set
};

bool write_all(int fd, const unsigned char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t wrote = ::write(fd, data, size);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            return false;
        }
        data += wrote;
        size -= static_cast<std::size_t>(wrote);
    }
    return true;
}

// The merged file, written under a temporary name in the output's directory and renamed to
// the output once complete; removed when it is not.
class MergedFile {
  public:
    explicit MergedFile(const std::string& out_path) : out_path_(out_path) {
        const std::filesystem::path out{out_path};
        temp_path_ = (out.parent_path() / std::string(1, '.').append(out.filename().string()))
                         .string()
                         .append(".XXXXXX");
        fd_ = ::mkstemp(temp_path_.data());
        if (fd_ < 0) {
            fail();
            return;
        }
        const mode_t mask = ::umask(0);  // the mode a plain creation would give
        ::umask(mask);
        ::fchmod(fd_, 0666 & ~mask);
        write(detail::raw::file_header(detail::raw::kFlagMerged));
    }

    ~MergedFile() {
        if (fd_ >= 0) {
            ::close(fd_);
            ::unlink(temp_path_.c_str());
        }
    }

    MergedFile(const MergedFile&) = delete;
    MergedFile& operator=(const MergedFile&) = delete;

    bool ok() const { return error_ == 0; }

    void write(std::string_view bytes) {
        write({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()});
    }

    void write(std::span<const unsigned char> bytes) {
        if (ok() && !write_all(fd_, bytes.data(), bytes.size())) {
            fail();
        }
    }

    // The header with its final flags, then the file under its name; false when it failed
    // (said on stderr).
    bool finish(std::uint32_t flags) {
        const std::string header = detail::raw::file_header(flags);
        if (ok() &&
            ::pwrite(fd_, header.data(), header.size(), 0) != static_cast<ssize_t>(header.size())) {
            fail();
        }
        if (ok() && ::close(std::exchange(fd_, -1)) != 0) {
            fail();
        }
        if (ok() && ::rename(temp_path_.c_str(), out_path_.c_str()) != 0) {
            fail();
        }
        if (!ok()) {
            ::unlink(temp_path_.c_str());
            print_error(out_path_, std::string{"cannot write it: "} + std::strerror(error_));
        }
        return ok();
    }

  private:
    void fail() { error_ = error_ != 0 ? error_ : (errno != 0 ? errno : EIO); }

    std::string out_path_;
    std::string temp_path_;
    int fd_ = -1;
    int error_ = 0;
};

std::uint64_t total_bytes(const std::vector<std::string>& paths) {
    std::uint64_t total = 0;
    for (const std::string& path : paths) {
        std::error_code error;
        const std::uintmax_t size = std::filesystem::file_size(path, error);
        total += error ? 0 : size;
    }
    return total;
}

}  // namespace

MergeResult merge_files(const std::vector<std::string>& paths, const std::string& out_path,
                        const MergeOptions& options) {
    MergeResult result;
    MergedFile out{out_path};
    if (!out.ok()) {  // its directory cannot take it: said before any input is read
        out.finish(0);
        result.status = kExitFailed;
        return result;
    }
    const std::uint64_t total = total_bytes(paths);
    Progress progress{"merging " + std::to_string(paths.size()) + " files", total,
                      Progress::wanted(total, !options.progress)};
    const unsigned workers = std::clamp<unsigned>(
        options.workers != 0 ? options.workers : std::thread::hardware_concurrency(), 1,
        static_cast<unsigned>(std::max<std::size_t>(paths.size(), 1)));
    CheckedInputs inputs{paths, workers};
    std::uint32_t flags = detail::raw::kFlagMerged;
    std::uint64_t written = 0;
    for (std::size_t index = 0; index < paths.size() && out.ok(); ++index) {
        const CheckedInput input = inputs.take(index);
        if (!input.messages.empty()) {
            progress.clear();
            std::cerr << input.messages;
        }
        if (!input.file) {
            result.status = kExitFailed;
            return result;
        }
        flags |= input.flags & detail::raw::kFlagKeys;
        out.write(input.file->bytes().subspan(input.header_bytes));
        result.runs += input.runs;
        result.events += input.events;
        written += input.file->bytes().size();
        progress.update(written);
    }
    progress.finish();
    result.status = out.finish(flags) ? kExitOk : kExitFailed;
    return result;
}

}  // namespace qprof::cli
