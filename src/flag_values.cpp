// Each -Z flag's value: parsed, checked and applied to SessionOptions (flag_values.hpp).
#include "flag_values.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "colour_classes.hpp"
#include "format.hpp"
#include "report_files.hpp"
#include "text.hpp"

namespace qprof::detail {

namespace {

std::string quoted_flag(const FlagUse& use) {
    std::string text = "'-Z ";  // appended: g++ 12 -O2 warns falsely on "literal" + std::string
    text += shown(use.name);
    if (use.value) {
        text += '=';
        text += shown(*use.value);
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

// A comma-separated list of words, each one of `choices`; returns which were given.
std::vector<bool> parse_choices(const FlagUse& use, std::string_view syntax,
                                const std::vector<std::string>& choices) {
    std::vector<bool> given(choices.size(), false);
    for (const std::string& word : split(require_value(use, syntax), ',')) {
        const auto it = std::find(choices.begin(), choices.end(), word);
        if (it == choices.end()) {
            throw FlagError(choice_error("option", word, use, choices));
        }
        given[static_cast<std::size_t>(it - choices.begin())] = true;
    }
    return given;
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

[[noreturn]] void bad_colour_item(const FlagUse& use, std::string_view item, std::string_view why) {
    throw FlagError("qprof: bad item '" + shown(item) + "' in " + quoted_flag(use) +
                    std::string(use.origin) + ": " + std::string(why) +
                    ". Expected REGEX:CLASS, a regular expression (ECMAScript) found in the names "
                    "of the providers to colour and a class of letters, digits, '_', '-' or '.', "
                    "several separated by commas (a comma inside a regex is written \\x2c). "
                    "Example: '-Z profile-queries-colour=^codegen:codegen,_jit$:jit'.");
}

}  // namespace

std::string choice_error(std::string_view what, std::string_view given, const FlagUse& use,
                         const std::vector<std::string>& choices) {
    std::string message = "qprof: unknown " + std::string(what) + " '" + shown(given) + "' in " +
                          quoted_flag(use) + std::string(use.origin) + ".";
    if (auto nearest = nearest_match(given, choices)) {
        message += " Did you mean '" + *nearest + "'?";
    }
    return message + " Valid " + std::string(what) + "s: " + join(choices, ", ") + ".";
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
    for (const std::string& name : split(*use.value, ',')) {
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
                        "a share of the busy time from 0 to 100; one of them may be left empty.");
    }
    if (extent) {
        options.report.important_extent = *extent;
    }
    if (percent) {
        options.report.important_percent = *percent + 0.0;  // -0 becomes 0
    }
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

// Items apply in order, from the default (every kind of every provider), or from no optional
// kind when the list starts by naming one to record ("activities,waits": those only).
void apply_events(SessionOptions& options, const FlagUse& use) {
    const std::vector<std::string> items =
        split(require_value(use, "=-hits,-PROVIDER,keys=PROVIDER,..."), ',');
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

// REGEX:CLASS items, added after those of earlier uses of the flag: the last match wins.
void apply_colour(SessionOptions& options, const FlagUse& use) {
    for (const std::string& item : split(require_value(use, "=REGEX:CLASS,..."), ',')) {
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

}  // namespace qprof::detail
