#include "colour_classes.hpp"

#include <stdexcept>

namespace qprof::detail {

namespace {

bool allowed_in_class(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
}

// A class from the program's own source, made acceptable rather than refused.
std::string cleaned_class(std::string colour_class) {
    if (colour_class.size() > kMaxColourClassBytes) {
        colour_class.resize(kMaxColourClassBytes);
    }
    for (char& c : colour_class) {
        c = allowed_in_class(c) ? c : '_';
    }
    return colour_class;
}

}  // namespace

std::optional<std::string> colour_class_problem(std::string_view colour_class) {
    if (colour_class.empty()) {
        return "the class is missing";
    }
    if (colour_class.size() > kMaxColourClassBytes) {
        return "the class is longer than " + std::to_string(kMaxColourClassBytes) + " bytes";
    }
    for (const char c : colour_class) {
        if (!allowed_in_class(c)) {
            return "a class holds only letters, digits, '_', '-' and '.'";
        }
    }
    return std::nullopt;
}

ColourRules::ColourRules(const std::vector<ColourRule>& rules) {
    for (const ColourRule& rule : rules) {
        if (rule.pattern.empty()) {
            throw std::invalid_argument("the regular expression is empty (use '.' for every name)");
        }
        if (const auto problem = colour_class_problem(rule.colour_class)) {
            throw std::invalid_argument(*problem);
        }
        try {
            rules_.push_back(
                Compiled{std::regex{rule.pattern, std::regex::ECMAScript}, rule.colour_class});
        } catch (const std::regex_error& error) {
            throw std::invalid_argument("'" + rule.pattern + "' is not a regular expression (" +
                                        error.what() + ")");
        }
    }
}

void ColourRules::apply(std::vector<RegisteredSite>& sites) const {
    for (RegisteredSite& site : sites) {
        site.colour_class = cleaned_class(std::move(site.colour_class));
        for (auto rule = rules_.rbegin(); rule != rules_.rend(); ++rule) {
            if (std::regex_search(site.provider, rule->pattern)) {
                site.colour_class = rule->colour_class;
                break;
            }
        }
    }
}

}  // namespace qprof::detail
