// qprof: turns saved runs (profile_queries.qprof) into reports, off-line.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "format.hpp"
#include "input.hpp"
#include "text.hpp"

namespace {

struct Subcommand {
    std::string_view name;
    std::string_view summary;
    int (*run)(std::span<const std::string> words);
};

constexpr Subcommand kSubcommands[] = {
    {"summarize", "one row per provider: self time, share, total, count, hits, blocked, load",
     qprof::cli::run_summarize},
    {"report", "any report (html, counts, folded, ...) of a saved run", qprof::cli::run_report},
    {"diff", "what changed per provider between two runs (text, --json or --html)",
     qprof::cli::run_diff},
    {"merge", "many runs (every process of a build) into one file", qprof::cli::run_merge},
};

void print_help(std::ostream& out) {
    out << "Usage: qprof COMMAND [OPTIONS] FILE...\n\n"
           "Reads profile_queries.qprof files, written by a program run with\n"
           "'-Z profile-queries=raw', and turns them into reports.\n\ncommands:\n";
    for (const Subcommand& command : kSubcommands) {
        out << "  " << qprof::detail::pad(command.name, 11) << command.summary << '\n';
    }
    out << "\n'qprof COMMAND --help' tells more. Exit status: 0 done, 1 failed (the message says "
           "why),\n2 an input was damaged and only what came before the damage was used.\n";
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> words(argv + 1, argv + argc);
    if (words.empty() || words[0] == "--help" || words[0] == "-h" || words[0] == "help") {
        print_help(words.empty() ? std::cerr : std::cout);
        return words.empty() ? qprof::cli::kExitFailed
                             : qprof::cli::checked_stdout(qprof::cli::kExitOk);
    }
    if (words[0] == "--version") {
        std::cout << "qprof " << QPROF_VERSION << " (reads raw stream format 1.x)\n";
        return qprof::cli::checked_stdout(qprof::cli::kExitOk);
    }
    std::vector<std::string> names;
    for (const Subcommand& command : kSubcommands) {
        if (words[0] == command.name) {
            return command.run(std::span{words}.subspan(1));
        }
        names.emplace_back(command.name);
    }
    std::cerr << "qprof: unknown command '" << words[0] << "'.";
    if (auto nearest = qprof::detail::nearest_match(words[0], names)) {
        std::cerr << " Did you mean '" << *nearest << "'?";
    }
    std::cerr << " Commands: " << qprof::detail::join(names, ", ") << ". See 'qprof --help'.\n";
    return qprof::cli::kExitFailed;
}
