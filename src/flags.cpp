// The -Z flags: one table of name, value, help and parser.
#include <algorithm>
#include <charconv>
#include <optional>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "colour_classes.hpp"
#include "format.hpp"
#include "report_files.hpp"
#include "text.hpp"

namespace qprof {

namespace {

// One -Z flag as written, and where it came from (for the messages).
struct FlagUse {
    std::string_view name;
    std::optional<std::string_view> value;
    std::string_view origin;  // "" for the command line, " (from QPROF_FLAGS)" otherwise
};

struct FlagSpec {
    std::string_view name;
    std::string_view value_syntax;  // as shown by -Z help, e.g. "=tsc|steady"
    std::string_view help;
    void (*apply)(SessionOptions& options, const FlagUse& use);
};

using detail::shown;

std::string quoted_flag(const FlagUse& use) {
    std::string text = "'-Z " + shown(use.name);
    if (use.value) {
        text += "=" + shown(*use.value);
    }
    return text + "'";
}

void reject_value(const FlagUse& use) {
    if (use.value) {
        throw FlagError("qprof: flag '-Z " + std::string(use.name) + "' takes no value, but " +
                        quoted_flag(use) + " gives one" + std::string(use.origin) + ".");
    }
}

std::string_view require_value(const FlagUse& use, std::string_view syntax) {
    if (!use.value || use.value->empty()) {
        throw FlagError("qprof: flag '-Z " + std::string(use.name) + "' needs a value, as in '-Z " +
                        std::string(use.name) + std::string(syntax) + "'" +
                        std::string(use.origin) + ".");
    }
    return *use.value;
}

std::string choice_error(std::string_view what, std::string_view given, const FlagUse& use,
                         const std::vector<std::string>& choices) {
    std::string message = "qprof: unknown " + std::string(what) + " '" + shown(given) + "' in " +
                          quoted_flag(use) + std::string(use.origin) + ".";
    if (auto nearest = detail::nearest_match(given, choices)) {
        message += " Did you mean '" + *nearest + "'?";
    }
    return message + " Valid " + std::string(what) + "s: " + detail::join(choices, ", ") + ".";
}

void apply_help(SessionOptions& options, const FlagUse& use) {
    reject_value(use);
    options.show_help = true;
}

void apply_profile_queries(SessionOptions& options, const FlagUse& use) {
    options.profile_queries = true;
    if (!use.value) {
        return;
    }
    const std::vector<std::string> known = reporter_names();
    std::vector<std::string> chosen;
    for (const std::string& name : detail::split(*use.value, ',')) {
        if (name.empty()) {
            throw FlagError("qprof: empty reporter name in " + quoted_flag(use) +
                            std::string(use.origin) + "; list reporters separated by commas, " +
                            "as in '-Z profile-queries=counts,html'.");
        }
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            throw FlagError(choice_error("reporter", name, use, known));
        }
        if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) {
            chosen.push_back(name);
        }
    }
    options.reporters = std::move(chosen);
}

void apply_profile_queries_and_keys(SessionOptions& options, const FlagUse& use) {
    apply_profile_queries(options, use);
    options.record_keys = true;
    if (!use.value) {
        options.reporters = {"counts", "keys", "html"};
    }
}

void apply_memory(SessionOptions& options, const FlagUse& use) {
    reject_value(use);
    options.profile_queries = true;
    options.record_memory = true;
}

void apply_output_dir(SessionOptions& options, const FlagUse& use) {
    options.output_dir = std::string(require_value(use, "=PATH"));
}

void apply_name(SessionOptions& options, const FlagUse& use) {
    const std::string_view value = require_value(use, "=PATTERN");
    try {
        (void)detail::expand_name_pattern(value, "program", 1, 0);
    } catch (const std::invalid_argument& error) {
        throw FlagError("qprof: bad name in " + quoted_flag(use) + std::string(use.origin) + ": " +
                        error.what() + ". Example: '-Z profile-queries-name=%n-%p'.");
    }
    options.name_pattern = std::string(value);
}

void apply_inherit(SessionOptions& options, const FlagUse& use) {
    const std::string_view value = require_value(use, "=yes|no");
    if (value != "yes" && value != "no") {
        throw FlagError(choice_error("value", value, use, {"yes", "no"}));
    }
    options.inherit_flags = value == "yes";
}

void apply_clock(SessionOptions& options, const FlagUse& use) {
    const std::string_view value = require_value(use, "=tsc|steady");
    if (value == "tsc") {
        options.clock = ClockChoice::tsc;
    } else if (value == "steady") {
        options.clock = ClockChoice::steady;
    } else {
        throw FlagError(choice_error("clock", value, use, {"tsc", "steady"}));
    }
}

// Parses all of `text` as a number; nullopt when it is not one.
template <typename Number>
std::optional<Number> parse_number(std::string_view text) {
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// EXTENT,PERCENT; either may be left empty to keep its default, as in "10," or ",0.5".
void apply_important(SessionOptions& options, const FlagUse& use) {
    const std::string_view value = require_value(use, "=EXTENT,PERCENT");
    const std::size_t comma = value.find(',');
    const std::string_view extent_text = value.substr(0, comma);
    const std::string_view percent_text =
        comma == std::string_view::npos ? std::string_view{} : value.substr(comma + 1);
    const auto extent = parse_number<std::uint32_t>(extent_text);
    const auto percent = parse_number<double>(percent_text);
    const bool extent_ok = extent_text.empty() || (extent && *extent >= 1);
    const bool percent_ok = percent_text.empty() || (percent && *percent >= 0 && *percent <= 100);
    if (!extent_ok || !percent_ok || (extent_text.empty() && percent_text.empty())) {
        throw FlagError("qprof: bad value in " + quoted_flag(use) + std::string(use.origin) +
                        ": expected EXTENT,PERCENT as in '-Z profile-queries-important=6,1', where "
                        "EXTENT is a whole number of immediate children (1 or more) and PERCENT "
                        "a share of the wall time from 0 to 100; one of them may be left empty.");
    }
    if (extent) {
        options.report.important_extent = *extent;
    }
    if (percent) {
        options.report.important_percent = *percent + 0.0;  // -0 becomes 0
    }
}

// A comma-separated list of words, each one of `choices`; returns which were given.
std::vector<bool> parse_choices(const FlagUse& use, std::string_view syntax,
                                const std::vector<std::string>& choices) {
    std::vector<bool> given(choices.size(), false);
    for (const std::string& word : detail::split(require_value(use, syntax), ',')) {
        const auto it = std::find(choices.begin(), choices.end(), word);
        if (it == choices.end()) {
            throw FlagError(choice_error("option", word, use, choices));
        }
        given[static_cast<std::size_t>(it - choices.begin())] = true;
    }
    return given;
}

void apply_folded(SessionOptions& options, const FlagUse& use) {
    const std::vector<bool> given =
        parse_choices(use, "=merge-threads,hits,keys,args,classes,bytes",
                      {"merge-threads", "hits", "keys", "args", "classes", "bytes"});
    options.report.folded_merge_threads = given[0];
    options.report.folded_hits = given[1];
    options.report.folded_keys = given[2];
    options.report.folded_args = given[3];
    options.report.folded_classes = given[4];
    options.report.folded_bytes = given[5];
}

void apply_chrome(SessionOptions& options, const FlagUse& use) {
    const std::vector<bool> given = parse_choices(use, "=hits,keys", {"hits", "keys"});
    options.report.chrome_hits = given[0];
    options.report.chrome_keys = given[1];
}

// The kinds -Z profile-queries-events names, and where each is kept.
struct EventKind {
    std::string_view name;
    bool EventSelection::*recorded;
};
constexpr EventKind kEventKinds[] = {
    {"hits", &EventSelection::hits},   {"activities", &EventSelection::activities},
    {"waits", &EventSelection::waits}, {"loads", &EventSelection::loads},
    {"sizes", &EventSelection::sizes}, {"counters", &EventSelection::counters}};

const EventKind* event_kind(std::string_view name) {
    for (const EventKind& kind : kEventKinds) {
        if (kind.name == name) {
            return &kind;
        }
    }
    return nullptr;
}

[[noreturn]] void bad_event_item(const FlagUse& use, std::string_view item, std::string_view why) {
    throw FlagError("qprof: " + std::string(why) + " '" + shown(item) + "' in " + quoted_flag(use) +
                    std::string(use.origin) +
                    ". Accepted: hits, keys, activities, waits, loads, sizes, counters, each with "
                    "'-' to leave it out; -PROVIDER to leave out a provider or activity; "
                    "keys=PROVIDER,... for the keys of those providers only; default; all. "
                    "Example: '-Z profile-queries-events=-hits,-def_span'.");
}

// Items apply in order, from the default (every kind of every provider), or from no optional
// kind when the list starts by naming one to record ("activities,waits": those only).
void apply_events(SessionOptions& options, const FlagUse& use) {
    const std::vector<std::string> items =
        detail::split(require_value(use, "=-hits,-PROVIDER,keys=PROVIDER,..."), ',');
    EventSelection events;
    if (!items.empty() && event_kind(items.front()) != nullptr) {
        for (const EventKind& kind : kEventKinds) {
            events.*kind.recorded = false;
        }
    }
    bool in_key_list = false;  // bare names after keys= are more of its providers
    for (const std::string& item : items) {
        const std::string_view name = std::string_view{item}.substr(item.starts_with('-'));
        const bool removes = name.size() < item.size();
        if (name.empty()) {
            bad_event_item(use, item, "empty item");
        } else if (const EventKind* kind = event_kind(name)) {
            events.*kind->recorded = !removes;
        } else if (name == "keys") {
            options.record_keys = !removes;
            events.key_providers.clear();
        } else if (item.starts_with("keys=") && item.size() > 5) {
            options.record_keys = true;
            events.key_providers = {item.substr(5)};
            in_key_list = true;
            continue;
        } else if (item == "default" || item == "all") {
            events = EventSelection{};
            options.record_keys = options.record_keys || item == "all";
        } else if (removes) {
            events.excluded.emplace_back(name);
        } else if (in_key_list) {
            events.key_providers.emplace_back(name);
            continue;
        } else {
            bad_event_item(use, item, "unknown event kind");
        }
        in_key_list = false;
    }
    options.events = std::move(events);
}

[[noreturn]] void bad_colour_item(const FlagUse& use, std::string_view item, std::string_view why) {
    throw FlagError("qprof: bad item '" + shown(item) + "' in " + quoted_flag(use) +
                    std::string(use.origin) + ": " + std::string(why) +
                    ". Expected REGEX:CLASS, a regular expression (ECMAScript) found in the names "
                    "of the providers to colour and a class of letters, digits, '_', '-' or '.', "
                    "several separated by commas (a comma inside a regex is written \\x2c). "
                    "Example: '-Z profile-queries-colour=^codegen:codegen,_jit$:jit'.");
}

// REGEX:CLASS items, added after those of earlier uses of the flag: the last match wins.
void apply_colour(SessionOptions& options, const FlagUse& use) {
    for (const std::string& item : detail::split(require_value(use, "=REGEX:CLASS,..."), ',')) {
        const std::size_t colon = item.rfind(':');
        if (colon == std::string::npos) {
            bad_colour_item(use, item, "the class is missing");
        }
        ColourRule rule{item.substr(0, colon), item.substr(colon + 1)};
        try {
            (void)detail::ColourRules{std::vector<ColourRule>{rule}};
        } catch (const std::invalid_argument& error) {
            bad_colour_item(use, item, error.what());
        }
        options.colours.push_back(std::move(rule));
    }
}

constexpr FlagSpec kFlags[] = {
    {"help", "", "print this list and exit", apply_help},
    {"profile-queries", "[=REPORTER,...]",
     "record every query and write reports at the end (default reporters: counts, html)",
     apply_profile_queries},
    {"profile-queries-and-keys", "[=REPORTER,...]",
     "the same, and record the key of every query (default reporters: counts, keys, html)",
     apply_profile_queries_and_keys},
    {"profile-queries-memory", "",
     "record too what each scope allocates, through the allocation hook the program includes "
     "(qprof/alloc_hook.hpp)",
     apply_memory},
    {"profile-queries-dir", "=PATH", "directory the reports are written to (default: .)",
     apply_output_dir},
    {"profile-queries-name", "=PATTERN",
     "file names of the reports before their suffix: %n program, %p process id, %t start time "
     "(default: profile_queries; a name taken by another run gets -PID added)",
     apply_name},
    {"profile-queries-inherit", "=yes|no",
     "no: remove QPROF_FLAGS from the environment at start, so child processes are not "
     "profiled (default: yes)",
     apply_inherit},
    {"profile-queries-important", "=EXTENT,PERCENT",
     "a node with EXTENT or more children or PERCENT % or more of the time is important: "
     "opened and labelled in the HTML tree (default: 6,1)",
     apply_important},
    {"profile-queries-folded", "=merge-threads,hits,keys,args,classes,bytes",
     "profile_queries.folded: one root for all threads; hits as leaf frames; keys in frames; "
     "activities' arguments in frames; colour classes as frame suffixes, _[CLASS]; stacks "
     "weighed by allocated bytes (with -Z profile-queries-memory)",
     apply_folded},
    {"profile-queries-chrome", "=hits,keys",
     "profile_queries.trace.json: hits as instant events; keys in the events' args", apply_chrome},
    {"profile-queries-events", "=LIST",
     "which events are recorded: -hits, -activities, -waits, -loads, -sizes, -counters leave a "
     "kind out, "
     "-PROVIDER one provider, keys=PROVIDER,... keeps keys of those only (default: all, keys "
     "with -Z profile-queries-and-keys)",
     apply_events},
    {"profile-queries-colour", "=REGEX:CLASS,...",
     "colour the providers and activities whose name matches REGEX by CLASS in the reports "
     "(over the class a site gives with PROFILE_QUERY_CLASS; repeatable, the last match wins)",
     apply_colour},
    {"profile-clock", "=tsc|steady",
     "clock for timing (default: tsc where the CPU has an invariant one, else steady)",
     apply_clock},
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
