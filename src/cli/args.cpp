// Parsing a subcommand's words against its declaration; every error names the fix.
#include "args.hpp"

#include <algorithm>
#include <sstream>

#include "format.hpp"
#include "text.hpp"

namespace qprof::cli {

namespace {

constexpr std::size_t kHelpWidth = 80;

const OptionSpec kHelpOption{"help", 'h', "", "show this help and exit"};

// Built by appending: g++ 12 -O2 warns falsely (-Wrestrict) on "literal" + std::string.
std::string quoted(std::string_view text) {
    std::string result(1, '\'');
    result.append(text).push_back('\'');
    return result;
}

std::string usage_line(const CommandSpec& command) {
    std::string line = "qprof " + command.name + " [OPTIONS]";
    for (const PositionalSpec& positional : command.positionals) {
        line += " " + positional.name;
    }
    return line;
}

// The command's options and --help, which every command has.
std::vector<const OptionSpec*> options_of(const CommandSpec& command) {
    std::vector<const OptionSpec*> options;
    for (const OptionSpec& option : command.options) {
        options.push_back(&option);
    }
    options.push_back(&kHelpOption);
    return options;
}

std::vector<std::string> long_names(const CommandSpec& command) {
    std::vector<std::string> names;
    for (const OptionSpec* option : options_of(command)) {
        names.push_back(option->name);
    }
    return names;
}

// " Did you mean '--sort'?" when `given` is close to an option's name, else "".
std::string option_suggestion(const CommandSpec& command, std::string_view given) {
    const auto nearest = detail::nearest_match(given, long_names(command));
    return nearest ? " Did you mean " + quoted("--" + *nearest) + "?" : "";
}

class Parser {
  public:
    Parser(const CommandSpec& command, std::span<const std::string> words)
        : command_(command), words_(words) {}

    ParsedArgs run();

  private:
    void take_long(std::string_view word);
    void take_short(std::string_view word);
    std::string value_after(const OptionSpec& option, std::string_view written);
    void store(const OptionSpec& option, std::string_view written, std::string value);
    void check_positionals() const;
    [[noreturn]] void fail(const std::string& message) const;

    const CommandSpec& command_;
    std::span<const std::string> words_;
    std::size_t next_ = 0;
    ParsedArgs parsed_;
};

ParsedArgs Parser::run() {
    bool options_ended = false;
    while (next_ < words_.size()) {
        const std::string& word = words_[next_++];
        if (options_ended || word == "-" || !word.starts_with("-")) {
            parsed_.positionals.push_back(word);
        } else if (word == "--") {
            options_ended = true;
        } else if (word.starts_with("--")) {
            take_long(std::string_view(word).substr(2));
        } else {
            take_short(std::string_view(word).substr(1));
        }
    }
    if (!parsed_.help) {
        check_positionals();
    }
    return std::move(parsed_);
}

void Parser::take_long(std::string_view word) {
    const std::size_t eq = word.find('=');
    const std::string_view name = word.substr(0, eq);
    const auto options = options_of(command_);
    const auto it = std::find_if(options.begin(), options.end(),
                                 [&](const OptionSpec* option) { return option->name == name; });
    if (it == options.end()) {
        fail("unknown option " + quoted("--" + std::string(name)) + "." +
             option_suggestion(command_, name));
    }
    const OptionSpec& option = **it;
    const std::string written = "--" + option.name;
    if (eq == std::string_view::npos) {
        store(option, written, value_after(option, written));
    } else if (option.value_name.empty()) {
        fail("option " + quoted(written) + " takes no value, but " +
             quoted("--" + std::string(word)) + " gives one.");
    } else if (eq + 1 == word.size()) {
        fail("option " + quoted(written) + " needs a value after '=', as in " +
             quoted(written + "=" + option.value_name) + ".");
    } else {
        store(option, written, std::string(word.substr(eq + 1)));
    }
}

// -x, -x VALUE, -xVALUE or -x=VALUE.
void Parser::take_short(std::string_view word) {
    const auto options = options_of(command_);
    const auto it = std::find_if(options.begin(), options.end(), [&](const OptionSpec* option) {
        return option->short_name != 0 && option->short_name == word[0];
    });
    if (it == options.end() || (word.size() > 1 && (*it)->value_name.empty())) {
        fail("unknown option " + quoted(std::string(1, '-').append(word)) + "." +
             (word.size() > 1 ? option_suggestion(command_, word.substr(0, word.find('='))) : ""));
    }
    const OptionSpec& option = **it;
    const std::string written{'-', option.short_name};
    if (word.size() == 1) {
        store(option, written, value_after(option, written));
    } else {
        store(option, written, std::string(word.substr(word[1] == '=' ? 2 : 1)));  // -oDIR, -o=DIR
    }
}

// The next word as the value of `option`, or "" for a switch.
std::string Parser::value_after(const OptionSpec& option, std::string_view written) {
    if (option.value_name.empty()) {
        return "";
    }
    if (next_ == words_.size() || words_[next_].starts_with("--")) {
        const std::string example = written.starts_with("--")
                                        ? std::string(written) + "=" + option.value_name
                                        : std::string(written) + " " + option.value_name;
        fail("option " + quoted(written) + " needs a value, as in " + quoted(example) + ".");
    }
    return words_[next_++];
}

void Parser::store(const OptionSpec& option, std::string_view written, std::string value) {
    const auto& choices = option.choices;
    if (!choices.empty() && std::find(choices.begin(), choices.end(), value) == choices.end()) {
        const auto nearest = detail::nearest_match(value, choices);
        fail("unknown value " + quoted(value) + " for " + quoted(written) + "." +
             (nearest ? " Did you mean " + quoted(*nearest) + "?" : "") +
             " Valid values: " + detail::join(choices, ", ") + ".");
    }
    if (&option == &kHelpOption) {
        parsed_.help = true;
    }
    parsed_.values[option.name] = std::move(value);
}

void Parser::check_positionals() const {
    const std::vector<PositionalSpec>& expected = command_.positionals;
    const std::vector<std::string>& given = parsed_.positionals;
    const std::string usage = " Usage: " + quoted(usage_line(command_)) + ".";
    if (given.size() < expected.size()) {
        const PositionalSpec& missing = expected[given.size()];
        throw UsageError("qprof " + command_.name + ": missing " + missing.name + ", " +
                         missing.help + "." + usage);
    }
    const bool repeats = !expected.empty() && expected.back().name.ends_with("...");
    if (given.size() > expected.size() && !repeats) {
        const std::size_t count = expected.size();
        throw UsageError("qprof " + command_.name + ": unexpected argument " +
                         quoted(given[count]) + "; " + command_.name + " takes " +
                         std::to_string(count) + (count == 1 ? " argument." : " arguments.") +
                         usage);
    }
}

void Parser::fail(const std::string& message) const { throw usage_error(command_, message); }

// `text` in lines of at most `width` columns, every line but the first indented by `indent`.
std::string wrapped(std::string_view text, std::size_t indent, std::size_t width) {
    std::string out;
    std::size_t column = indent;
    for (const std::string& word : detail::split(text, ' ')) {
        if (column > indent && column + 1 + word.size() > width) {
            out.push_back('\n');
            out.append(indent, ' ');
            column = indent;
        } else if (column > indent) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
    }
    return out;
}

// "  -o, --output=DIR" or "      --json", so that the long names line up.
std::string option_usage(const OptionSpec& option) {
    std::string usage = option.short_name != 0 ? "  -" + std::string(1, option.short_name) + ", "
                                               : std::string(6, ' ');
    usage += "--" + option.name;
    if (!option.value_name.empty()) {
        usage += "=" + option.value_name;
    }
    return usage;
}

std::string option_help(const OptionSpec& option) {
    if (option.choices.empty()) {
        return option.help;
    }
    return option.help + " (" + detail::join(option.choices, ", ") + ")";
}

using HelpRows = std::vector<std::pair<std::string, std::string>>;  // left text, help

HelpRows argument_rows(const CommandSpec& command) {
    HelpRows rows;
    for (const PositionalSpec& positional : command.positionals) {
        rows.emplace_back("  " + positional.name, positional.help);
    }
    return rows;
}

HelpRows option_rows(const CommandSpec& command) {
    HelpRows rows;
    for (const OptionSpec* option : options_of(command)) {
        rows.emplace_back(option_usage(*option), option_help(*option));
    }
    return rows;
}

std::size_t left_width(const HelpRows& rows) {
    std::size_t width = 0;
    for (const auto& [left, help] : rows) {
        width = std::max(width, left.size() + 2);
    }
    return width;
}

void write_rows(std::ostream& out, std::string_view title, const HelpRows& rows,
                std::size_t width) {
    if (rows.empty()) {
        return;
    }
    out << '\n' << title << ":\n";
    for (const auto& [left, help] : rows) {
        out << detail::pad(left, width) << wrapped(help, width, kHelpWidth) << '\n';
    }
}

}  // namespace

std::string ParsedArgs::value_or(std::string_view option, std::string_view fallback) const {
    const auto it = values.find(std::string(option));
    return it == values.end() ? std::string(fallback) : it->second;
}

ParsedArgs parse_args(const CommandSpec& command, std::span<const std::string> words) {
    return Parser{command, words}.run();
}

UsageError usage_error(const CommandSpec& command, const std::string& message) {
    return UsageError("qprof " + command.name + ": " + message + " See " +
                      quoted("qprof " + command.name + " --help") + ".");
}

std::string help_text(const CommandSpec& command) {
    const HelpRows arguments = argument_rows(command);
    const HelpRows options = option_rows(command);
    const std::size_t width = std::max(left_width(arguments), left_width(options));
    std::ostringstream out;
    out << "Usage: " << usage_line(command) << "\n\n"
        << wrapped(command.description, 0, kHelpWidth) << '\n';
    write_rows(out, "Arguments", arguments, width);
    write_rows(out, "Options", options, width);
    return out.str();
}

}  // namespace qprof::cli
