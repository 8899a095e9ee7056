// A one-line progress bar on stderr while qprof reads a large file:
//
//   qprof: reading big.qprof [#########-----------] 45%  72/160 MB  1.1 s left
//
//   Progress progress{"reading big.qprof", size, Progress::wanted(size, args.has("no-progress"))};
//   while (...) { ...; progress.update(bytes_read); }
//   progress.clear();                 // before writing anything else to stderr
//   std::cerr << "qprof: warning ...\n";
//   progress.finish();                // erases the line; the destructor does too
//
// The line is repainted at most every 100 ms and fits the terminal's width; a disabled
// Progress writes nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace qprof::cli {

class Progress {
  public:
    // Where and when the line is drawn; tests pass a string stream, a fake clock and a width.
    struct Terminal {
        std::ostream* out = nullptr;
        std::function<std::int64_t()> now_ns;  // monotonic
        std::function<int()> columns;
    };

    static constexpr std::uint64_t kMinBytes = 16 << 20;
    static constexpr std::int64_t kRepaintNs = 100'000'000;

    // Whether to show one: stderr is a terminal, the input is kMinBytes or more, and the user
    // did not turn it off (-q, --no-progress).
    static bool wanted(std::uint64_t total_bytes, bool turned_off);
    static bool wanted(std::uint64_t total_bytes, bool turned_off, bool stderr_is_terminal);
    // stderr, the steady clock and its width (TIOCGWINSZ, else 80 columns).
    static Terminal standard_error();

    Progress(std::string label, std::uint64_t total_bytes, bool enabled);
    Progress(std::string label, std::uint64_t total_bytes, bool enabled, Terminal terminal);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    void update(std::uint64_t done_bytes);
    // Erases the line, so that other output to stderr starts on a clean line; the next update
    // draws it again.
    void clear();
    // Erases the line for good; later updates draw nothing.
    void finish();

    // The line for `done_bytes` after `elapsed_ns`, at most `columns` - 1 wide.
    std::string line(std::uint64_t done_bytes, std::int64_t elapsed_ns, int columns) const;

  private:
    std::string label_;
    std::uint64_t total_bytes_;
    bool enabled_;
    Terminal terminal_;
    std::int64_t start_ns_ = 0;
    std::int64_t drawn_ns_ = 0;
    bool on_screen_ = false;
};

}  // namespace qprof::cli
