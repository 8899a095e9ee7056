#include <algorithm>
#include <qprof/detail/event_selection.hpp>

namespace qprof {

namespace {

bool contains(const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

void append_list(std::string& out, std::string_view label, const std::vector<std::string>& names) {
    if (names.empty()) {
        return;
    }
    out += out.empty() ? "" : "; ";
    out += label;
    for (std::size_t i = 0; i < names.size(); ++i) {
        out += (i == 0 ? " " : ", ") + names[i];
    }
}

void add_missing(std::vector<std::string>& names, const std::vector<std::string>& more) {
    for (const std::string& name : more) {
        if (!contains(names, name)) {
            names.push_back(name);
        }
    }
}

}  // namespace

bool EventSelection::records(std::string_view provider) const {
    return !contains(excluded, provider);
}

bool EventSelection::records_keys_of(std::string_view provider) const {
    return key_providers.empty() || contains(key_providers, provider);
}

bool EventSelection::everything() const { return *this == EventSelection{}; }

std::string EventSelection::left_out(bool keys_recorded) const {
    std::string kinds;
    for (const auto& [recorded, name] :
         {std::pair{hits, "hits"}, std::pair{activities, "activities"}, std::pair{waits, "waits"},
          std::pair{loads, "loads"}, std::pair{sizes, "sizes"}, std::pair{counters, "counters"}}) {
        if (!recorded) {
            kinds += (kinds.empty() ? "" : ", ") + std::string{name};
        }
    }
    std::string out = kinds;
    append_list(out, "providers", excluded);
    if (keys_recorded) {
        append_list(out, "keys only of", key_providers);
    }
    return out;
}

void EventSelection::add_left_out(const EventSelection& other) {
    hits = hits && other.hits;
    activities = activities && other.activities;
    waits = waits && other.waits;
    loads = loads && other.loads;
    sizes = sizes && other.sizes;
    counters = counters && other.counters;
    add_missing(excluded, other.excluded);
    add_missing(key_providers, other.key_providers);
}

}  // namespace qprof
