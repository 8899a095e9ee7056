// The files of one process's reports: their names and their creation, safe when many
// processes (every compiler of a build) write into one directory at once.
//
//   ReportFiles files{"/abs/out", expand_name_pattern("%n-%p", "cc1", 4242, start)};
//   std::string path = files.publish("counts.txt", [&](std::ostream& out) { ... });
//
// No file is ever overwritten or written through a symbolic link: a raw stream is created
// with O_CREAT | O_EXCL | O_NOFOLLOW; a report is written to a temporary name in the same
// directory (created the same way) and then linked to its final name, which fails rather
// than replace a file. So a report is either whole under its name or absent, never cut.
// When the name is taken, the file goes to STEM-PID (then STEM-PID-2, ...), said on stderr,
// and the process's later files follow it.
#pragma once

#include <sys/types.h>

#include <ctime>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace qprof::detail {

// PATTERN with %n (program name), %p (process id), %t (start time, local, as
// 20261123-231502) and %% (a percent sign). Throws std::invalid_argument naming any other
// %-sequence, and when the result is empty or holds a '/'.
std::string expand_name_pattern(std::string_view pattern, std::string_view program, pid_t pid,
                                std::time_t start);

// The temporary directory reports fall back to: made once per process with mkdtemp (mode
// 0700, a name nobody can predict) under $TMPDIR or /tmp. Empty, after saying why on stderr,
// when it cannot be made.
const std::filesystem::path& private_fallback_dir();

// Creates `path` for writing only if nothing (not even a symbolic link) is there; the
// descriptor, or -1 with errno set.
int create_exclusive(const std::filesystem::path& path, mode_t mode);

class ReportFiles {
  public:
    // What publish() does when the name is taken: a profiled process keeps the other file
    // and takes a unique name; the qprof tool, told where to write, replaces it (atomically).
    enum class Existing { keep, replace };

    // `dir` should be absolute (the session resolves it before the program can change
    // directory); `stem` is the file name before ".<suffix>".
    ReportFiles(std::filesystem::path dir, std::string stem, Existing existing = Existing::keep);

    const std::filesystem::path& dir() const { return dir_; }
    const std::string& stem() const { return stem_; }
    // dir/stem.suffix: where the file would go if nothing else were there.
    std::filesystem::path path_for(std::string_view suffix) const;

    // Creates dir/stem.suffix (or the fallback name) exclusively for writing. Returns the
    // descriptor and sets `path`; -1 with errno set when it cannot.
    int create(std::string_view suffix, std::string& path);

    // Writes a report through `write` to a temporary file, then gives it its name. Returns
    // the path, or an empty string after saying on stderr why the report is not there.
    std::string publish(std::string_view suffix, const std::function<void(std::ostream&)>& write);

  private:
    std::string next_stem(int attempt) const;
    void say_renamed(const std::filesystem::path& wanted, const std::string& got) const;
    // Calls claim(path) at this suffix's name, then at the next stems while the name is
    // taken (EEXIST), and says on stderr when it moved; `path` is the last name tried. False
    // with errno set when no name could be claimed.
    bool claim_free_name(std::string_view suffix,
                         const std::function<bool(const std::filesystem::path&)>& claim,
                         std::string& path);

    std::filesystem::path dir_;
    std::string stem_;
    std::string first_stem_;
    bool replace_;
};

}  // namespace qprof::detail
