// Loads saved runs for the qprof subcommands: maps the file, reads it with a progress bar,
// tells every problem on stderr (file, byte offset, what was expected) and completes the
// trace -- one trace for all the runs of a merged file.
#pragma once

#include <cstdint>
#include <ostream>
#include <qprof/report_options.hpp>
#include <qprof/trace.hpp>
#include <span>
#include <string>

namespace qprof::cli {

// Exit statuses shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;   // bad usage, or nothing usable in an input
inline constexpr int kExitPartial = 2;  // an input was damaged: what came before was used

// A file's bytes, mapped read-only. What cannot be mapped (a pipe, a device) is read whole, up
// to `unmapped_limit` bytes, and only while it starts as a stream does.
class InputFile {
  public:
    static constexpr std::size_t kUnmappedLimit = std::size_t{1} << 30;

    // Throws std::runtime_error naming the reason.
    explicit InputFile(std::string path, std::size_t unmapped_limit = kUnmappedLimit);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    std::span<const unsigned char> bytes() const { return {data_, size_}; }
    // Gives back the memory of the mapped bytes before `offset`, read and no longer needed:
    // memory stays flat while a large file is read (read again, they come back from the
    // file). Nothing for bytes that are not mapped.
    void release_before(std::size_t offset) const;
    const std::string& path() const { return path_; }

  private:
    std::string path_;
    const unsigned char* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
    std::string copy_;  // when not mapped
};

struct LoadOptions {
    bool keep_nodes = true;            // false: totals only (summarize, diff)
    bool quiet = false;                // -q: no progress bar, no warnings
    bool progress = true;              // --no-progress turns it off
    std::ostream* messages = nullptr;  // where problems are told; null: stderr
};

struct LoadedTrace {
    Trace trace;
    ReportOptions report;  // the options the (first) run was recorded with
    int status = kExitOk;  // kExitFailed: `trace` is empty and must not be used
    std::uint32_t runs = 0;
};

// Never throws: problems are told (on stderr unless `options.messages`) and reflected in
// `status`.
LoadedTrace load_trace(const std::string& path, const LoadOptions& options);
// The same for a file already open.
LoadedTrace load_trace(const InputFile& file, const LoadOptions& options);

// "qprof: error: FILE: MESSAGE" on stderr, or on `out`.
void print_error(const std::string& path, const std::string& message);
void print_error(std::ostream& out, const std::string& path, const std::string& message);

// `status`, once standard output has taken everything written to it; otherwise kExitFailed,
// said on stderr (a full disk, a closed pipe): a cut report must not look complete.
int checked_stdout(int status);

}  // namespace qprof::cli
