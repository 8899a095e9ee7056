#include "options.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace toyc {
namespace {

constexpr std::uint32_t kMaxItems = 1'000'000;
constexpr std::uint32_t kMaxThreads = 64;
constexpr std::array<std::string_view, 3> kOptionNames{"--items", "--threads", "--help"};

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            diagonal = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitution});
        }
    }
    return row[b.size()];
}

[[noreturn]] void unknown_option(std::string_view arg) {
    std::string message = "unknown option '" + std::string(arg) + "'";
    const std::string_view name = arg.substr(0, arg.find('='));
    for (const std::string_view known : kOptionNames) {
        if (edit_distance(name, known) <= 2) {
            message += "; did you mean '" + std::string(known) + "'?";
            throw UsageError(message);
        }
    }
    throw UsageError(message + "; run 'toyc --help' for the options");
}

std::uint32_t parse_count(std::string_view option, std::string_view text, std::uint32_t max) {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || value < 1 || value > max) {
        throw UsageError("bad value '" + std::string(text) + "' for " + std::string(option) +
                         ": expected a whole number from 1 to " + std::to_string(max));
    }
    return value;
}

// Accepts both "--items N" and "--items=N"; advances `index` past a separate value.
std::string_view option_value(std::string_view option, int argc, char** argv, int& index) {
    const std::string_view arg = argv[index];
    if (arg.size() > option.size()) {
        return arg.substr(option.size() + 1);
    }
    if (index + 1 >= argc) {
        throw UsageError(std::string(option) + " needs a value, as in '" + std::string(option) +
                         " 100'");
    }
    return argv[++index];
}

bool is_option(std::string_view arg, std::string_view option) {
    return arg == option || (arg.starts_with(option) && arg[option.size()] == '=');
}

}  // namespace

Options parse_options(int argc, char** argv) {
    Options options;
    for (int index = 1; index < argc; ++index) {
        const std::string_view arg = argv[index];
        if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (is_option(arg, "--items")) {
            options.items =
                parse_count("--items", option_value("--items", argc, argv, index), kMaxItems);
        } else if (is_option(arg, "--threads")) {
            options.threads =
                parse_count("--threads", option_value("--threads", argc, argv, index), kMaxThreads);
        } else if (arg.starts_with("-")) {
            unknown_option(arg);
        } else {
            throw UsageError("unexpected argument '" + std::string(arg) +
                             "': toyc generates its input program, so it takes no files;"
                             " use --items N to choose its size");
        }
    }
    return options;
}

void print_usage(std::ostream& out) {
    out << "usage: toyc [--items N] [--threads T] [-Z FLAG]...\n"
           "\n"
           "Compiles a synthetic program whose passes are memoised queries, as an example\n"
           "of a program profiled with qprof.\n"
           "\n"
           "  --items N     items in the program, 1 to "
        << kMaxItems << " (default " << kDefaultItems
        << ")\n"
           "  --threads T   codegen threads, 1 to "
        << kMaxThreads << " (default " << kDefaultThreads
        << "; 1 runs codegen on the main thread)\n"
           "  -h, --help    print this help\n"
           "  -Z FLAG       a profiler flag, e.g. '-Z profile-queries'; '-Z help' lists them\n";
}

}  // namespace toyc
