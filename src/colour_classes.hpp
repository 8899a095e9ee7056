// Colour classes: a word a provider is coloured by in the reports (PROFILE_QUERY_CLASS at its
// site, -Z profile-queries-colour=REGEX:CLASS by its name). Each site's class is resolved once,
// when the runtime first takes the site, never per event.
//
//   ColourRules rules{options.colours};   // the regular expressions compiled once
//   rules.apply(sites);                   // each site's class: the last matching rule's, else
//                                         // its own
#pragma once

#include <optional>
#include <qprof/detail/site.hpp>
#include <qprof/session.hpp>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::detail {

// Longest class accepted; a class is a word that goes into frames, categories and legends.
inline constexpr std::size_t kMaxColourClassBytes = 32;

// What is wrong with a class name, or nothing: it must be 1 to 32 letters, digits, '_', '-'
// or '.', so that it fits a folded frame's suffix and a Chrome trace's category list.
std::optional<std::string> colour_class_problem(std::string_view colour_class);

class ColourRules {
  public:
    ColourRules() = default;
    // Throws std::invalid_argument saying what is wrong: an empty pattern or one that is not an
    // ECMAScript regular expression, a class colour_class_problem refuses.
    explicit ColourRules(const std::vector<ColourRule>& rules);

    // Sets each site's colour_class: the class of the last rule whose pattern matches a part of
    // its name, else its own with any character a class may not hold made '_'.
    void apply(std::vector<RegisteredSite>& sites) const;

  private:
    struct Compiled {
        std::regex pattern;
        std::string colour_class;
    };
    std::vector<Compiled> rules_;
};

}  // namespace qprof::detail
