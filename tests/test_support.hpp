// Shared helpers for the tests: a deterministic clock, recording sessions without files,
// and a one-line text form of a thread's tree.
#pragma once

#include <atomic>
#include <filesystem>
#include <qprof/detail/clock.hpp>
#include <qprof/qprof.hpp>
#include <string>

namespace qprof::test {

// While alive, every clock read advances time by exactly `step_ns`, so durations are known.
class ManualClock {
  public:
    explicit ManualClock(std::uint64_t step_ns = 1'000'000);
    ~ManualClock();
    ManualClock(const ManualClock&) = delete;
    ManualClock& operator=(const ManualClock&) = delete;
};

// A fresh, empty directory under the system temporary directory, removed at destruction.
class TempDir {
  public:
    TempDir();
    ~TempDir();
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// Options of a recording session that writes no report.
SessionOptions recording_options();

// The tree of one thread as text, children in call order: `name(child child)`. Hits are
// prefixed with `+`, activities with `@`, unfinished nodes with `?`.
std::string tree_text(const Trace& trace, std::size_t thread = 0);

// The totals of the provider (or activity) with this name; fails the test if absent.
const ProviderTotals& totals_of(const Trace& trace, const std::string& provider);

std::string read_file(const std::filesystem::path& path);

}  // namespace qprof::test
