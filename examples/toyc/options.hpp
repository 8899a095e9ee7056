// toyc's own command line; the -Z profiler flags have been taken out of argv before this.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>

namespace toyc {

// Sized so that a default run takes about a second and records about a million queries.
inline constexpr std::uint32_t kDefaultItems = 11000;
inline constexpr std::uint32_t kDefaultThreads = 2;

struct Options {
    std::uint32_t items = kDefaultItems;
    std::uint32_t threads = kDefaultThreads;
    bool help = false;
};

// A bad command line; the message names the argument and how to fix it.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

Options parse_options(int argc, char** argv);
void print_usage(std::ostream& out);

}  // namespace toyc
