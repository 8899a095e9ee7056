// The arguments of one qprof subcommand, checked against its declaration, and its --help text.
//
//   const CommandSpec command{"summarize", "FILE's providers ...",
//                             {{"sort", 0, "KEY", "order of the rows", {"self", "name"}}},
//                             {{"FILE", "a saved run (.qprof)"}}};
//   try {
//       const ParsedArgs args = parse_args(command, words);   // words after "qprof summarize"
//       if (args.help) { std::cout << help_text(command); return 0; }
//       std::string sort = args.value_or("sort", "self");
//   } catch (const UsageError& error) {
//       std::cerr << error.what() << '\n';
//       return 1;
//   }
//
// Accepted forms: --name=VALUE, --name VALUE, and -x VALUE, -xVALUE or -x=VALUE for an option
// with a short name, --help and -h (always declared), and -- to end the options. A value given as
// the next word may not start with "--": `--sort --json` is a missing value, not a sort key
// "--json".
#pragma once

#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::cli {

struct OptionSpec {
    std::string name;                       // without the dashes: "sort" for --sort
    char short_name = 0;                    // 'o' for -o; 0 for none
    std::string value_name;                 // "KEY" shown in the help; empty for a switch
    std::string help;                       // one line
    std::vector<std::string> choices = {};  // the values allowed; empty for any
};

struct PositionalSpec {
    std::string name;  // "FILE", as shown in the usage line
    std::string help;
};

struct CommandSpec {
    std::string name;         // "summarize", as in "qprof summarize"
    std::string description;  // one paragraph, wrapped by help_text
    std::vector<OptionSpec> options;
    // Each required, in order; a last one named "FILE..." takes every remaining word.
    std::vector<PositionalSpec> positionals;
};

// A mistake on the command line; the message names the fix. The caller prints it and exits 1.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct ParsedArgs {
    bool help = false;  // --help or -h; positionals are then not checked
    std::vector<std::string> positionals;
    std::map<std::string, std::string> values;  // by option name; the last use wins

    bool has(std::string_view option) const { return values.contains(std::string(option)); }
    std::string value_or(std::string_view option, std::string_view fallback) const;
};

// Throws UsageError for an unknown option, a value missing, given to a switch or not among
// the choices, and for a positional missing or extra. A switch given has the value "".
ParsedArgs parse_args(const CommandSpec& command, std::span<const std::string> words);

// "qprof NAME: MESSAGE See 'qprof NAME --help'." for errors found after parsing.
UsageError usage_error(const CommandSpec& command, const std::string& message);

// Usage line, description and the aligned list of arguments and options.
std::string help_text(const CommandSpec& command);

}  // namespace qprof::cli
