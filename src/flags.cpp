// The -Z flags: one table of name, value, help and the function that applies it
// (flag_values.hpp); reading them from argv and QPROF_FLAGS; -Z help.
#include <algorithm>
#include <optional>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <sstream>
#include <string_view>
#include <utility>

#include "flag_values.hpp"
#include "format.hpp"
#include "text.hpp"

namespace qprof {

namespace {

using detail::FlagUse;
using detail::shown;

// One row of the table: -Z help prints it, apply_flag finds the function by the name.
struct FlagSpec {
    std::string_view name;
    std::string_view value_syntax;  // as shown by -Z help, e.g. "=tsc|steady"
    std::string_view help;
    void (*apply)(SessionOptions& options, const FlagUse& use);
};

constexpr FlagSpec kFlags[] = {
    {"help", "", "print this list and exit", detail::apply_help},
    {"profile-queries", "[=REPORTER,...]",
     "record every query and write reports at the end (default reporters: counts, html)",
     detail::apply_profile_queries},
    {"profile-queries-and-keys", "[=REPORTER,...]",
     "the same, and record the key of every query (default reporters: counts, keys, html; a "
     "page too heavy with its hits' keys leaves them out: see html below)",
     detail::apply_profile_queries_and_keys},
    {"profile-queries-memory", "",
     "record too what each scope allocates, through the allocation hook the program includes "
     "(qprof/alloc_hook.hpp)",
     detail::apply_memory},
    {"profile-queries-dir", "=PATH", "directory the reports are written to (default: .)",
     detail::apply_output_dir},
    {"profile-queries-name", "=PATTERN",
     "file names of the reports before their suffix: %n program, %p process id, %t start time "
     "(default: profile_queries; a name taken by another run gets -PID added)",
     detail::apply_name},
    {"profile-queries-inherit", "=yes|no",
     "no: remove QPROF_FLAGS from the environment at start, so child processes are not "
     "profiled (default: yes)",
     detail::apply_inherit},
    {"profile-queries-important", "=EXTENT,PERCENT",
     "a node with PERCENT % or more of the busy time (all threads' time, waits excluded), or "
     "with EXTENT or more immediate children and 0.1 % or more (PERCENT, if lower), is "
     "important: opened first and outlined in the HTML tree (default: 6,1)",
     detail::apply_important},
    {"profile-queries-folded", "=merge-threads,hits,keys,args,classes,bytes",
     "profile_queries.folded: one root for all threads; hits as leaf frames; keys in frames; "
     "activities' arguments in frames; colour classes as frame suffixes, _[CLASS]; stacks "
     "weighed by allocated bytes (with -Z profile-queries-memory)",
     detail::apply_folded},
    {"profile-queries-chrome", "=hits,keys",
     "profile_queries.trace.json: hits as instant events; keys in the events' args",
     detail::apply_chrome},
    {"profile-queries-events", "=LIST",
     "which events are recorded: -hits, -activities, -waits, -loads, -sizes, -counters leave a "
     "kind out, "
     "-PROVIDER one provider, keys=PROVIDER,... keeps keys of those only (default: all, keys "
     "with -Z profile-queries-and-keys)",
     detail::apply_events},
    {"profile-queries-colour", "=REGEX:CLASS,...",
     "colour the providers and activities whose name matches REGEX by CLASS in the reports "
     "(over the class a site gives with PROFILE_QUERY_CLASS; repeatable, the last match wins)",
     detail::apply_colour},
    {"profile-clock", "=tsc|steady",
     "clock for timing (default: tsc where the CPU has an invariant one, else steady)",
     detail::apply_clock},
};

std::vector<std::string> flag_names() {
    std::vector<std::string> names;
    for (const FlagSpec& flag : kFlags) {
        names.emplace_back(flag.name);
    }
    return names;
}

void apply_flag(SessionOptions& options, std::string_view text, std::string_view origin) {
    if (text.empty()) {
        throw FlagError("qprof: '-Z' must be followed by a flag name, as in '-Z profile-queries'" +
                        std::string(origin) + ". Run with -Z help for the list.");
    }
    FlagUse use{text, std::nullopt, origin};
    if (const std::size_t eq = text.find('='); eq != std::string_view::npos) {
        use.name = text.substr(0, eq);
        use.value = text.substr(eq + 1);
    }
    for (const FlagSpec& flag : kFlags) {
        if (flag.name == use.name) {
            flag.apply(options, use);
            return;
        }
    }
    std::string message =
        "qprof: unknown flag '-Z " + shown(use.name) + "'" + std::string(origin) + ".";
    const std::vector<std::string> names = flag_names();
    if (auto nearest = detail::nearest_match(use.name, names)) {
        message += " Did you mean '-Z " + *nearest + "'?";
    }
    throw FlagError(message + " Valid flags: " + detail::join(names, ", ") +
                    ". Run with -Z help for a description of each.");
}

// QPROF_FLAGS split into words as a shell splits them: blanks separate words, '...' and "..."
// quote (a backslash escapes " and \ inside "..."), a backslash outside quotes escapes the
// next character.
std::vector<std::string> env_words(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool escapes = c == '\\' && i + 1 < text.size();
        if (quote != 0) {
            const bool quoted_escape =
                escapes && quote == '"' && (text[i + 1] == '"' || text[i + 1] == '\\');
            if (c == quote) {
                quote = 0;
            } else {
                word += quoted_escape ? text[++i] : c;
            }
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) {
                words.push_back(std::exchange(word, {}));
            }
            in_word = false;
        } else {
            in_word = true;
            if (c == '\'' || c == '"') {
                quote = c;
            } else {
                word += escapes ? text[++i] : c;
            }
        }
    }
    if (quote != 0) {
        throw FlagError(std::string{"qprof: QPROF_FLAGS has an unclosed "} +
                        (quote == '"' ? "double" : "single") +
                        " quote. Quote a value with a space as in a shell: "
                        "QPROF_FLAGS=\"-Z 'profile-queries-dir=/tmp/my profiles'\".");
    }
    if (in_word) {
        words.push_back(word);
    }
    return words;
}

void apply_env_flags(SessionOptions& options, const char* env_flags) {
    constexpr std::string_view kOrigin = " (from QPROF_FLAGS)";
    const std::vector<std::string> words = env_words(env_flags);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& word = words[i];
        if (word == "-Z") {
            apply_flag(options, i + 1 < words.size() ? std::string_view(words[++i]) : "", kOrigin);
        } else if (word.starts_with("-Z")) {
            apply_flag(options, std::string_view(word).substr(2), kOrigin);
        } else {
            throw FlagError("qprof: QPROF_FLAGS holds only -Z flags, but it contains '" +
                            shown(word) + "'. Example: QPROF_FLAGS=\"-Z profile-queries\".");
        }
    }
}

}  // namespace

SessionOptions parse_flags(int& argc, char** argv, const char* env_flags) {
    SessionOptions options;
    if (env_flags != nullptr) {
        apply_env_flags(options, env_flags);
    }
    for (int i = 0; argv != nullptr && i < argc; ++i) {
        options.command_line.emplace_back(argv[i]);  // as given, -Z flags included
    }
    int kept = argc > 0 ? 1 : 0;
    bool after_double_dash = false;
    for (int i = kept; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (after_double_dash || !arg.starts_with("-Z")) {
            after_double_dash = after_double_dash || arg == "--";
            argv[kept++] = argv[i];
        } else if (arg == "-Z") {
            apply_flag(options, i + 1 < argc ? std::string_view(argv[++i]) : "", "");
        } else {
            apply_flag(options, arg.substr(2), "");
        }
    }
    if (argv != nullptr) {
        argv[kept] = nullptr;
    }
    argc = kept;
    return options;
}

std::string flags_help() {
    std::ostringstream out;
    out << "qprof flags, given as -Z NAME[=VALUE] or -ZNAME[=VALUE] on the command line or in "
           "QPROF_FLAGS:\n";
    auto usage = [](const FlagSpec& flag) {
        return "-Z " + std::string(flag.name) + std::string(flag.value_syntax);
    };
    std::size_t width = 0;
    for (const FlagSpec& flag : kFlags) {
        width = std::max(width, usage(flag).size() + 2);
    }
    for (const FlagSpec& flag : kFlags) {
        out << "  " << detail::pad(usage(flag), width) << flag.help << '\n';
    }
    out << "reporters, chosen with -Z profile-queries=NAME,...:\n";
    for (const std::string& name : reporter_names()) {
        const std::unique_ptr<Reporter> reporter = make_reporter(name);
        out << "  " << detail::pad(name, 12)
            << detail::pad("profile_queries." + std::string(reporter->file_suffix()), 33)
            << reporter->description() << '\n';
    }
    return out.str();
}

}  // namespace qprof
