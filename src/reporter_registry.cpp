// Maps reporter names to factories: the built-ins first (the reporters layer's list), then
// those users register.
#include "reporter_registry.hpp"

#include <algorithm>
#include <mutex>
#include <qprof/reporter.hpp>
#include <stdexcept>

namespace qprof {

namespace {

struct Entry {
    std::string name;
    ReporterFactory factory;
};

struct Registry {
    std::mutex mutex;
    std::vector<Entry> entries;
};

Registry& registry() {
    static Registry* instance = [] {  // users may register from static initialisers
        auto* built = new Registry;
        for (const detail::BuiltinReporter& builtin : detail::builtin_reporters()) {
            built->entries.push_back(Entry{std::string{builtin.name}, builtin.make});
        }
        return built;
    }();
    return *instance;
}

bool valid_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

}  // namespace

void register_reporter(std::string name, ReporterFactory factory) {
    if (!valid_name(name)) {
        throw std::invalid_argument("qprof: reporter name '" + name +
                                    "' is not valid: use lowercase letters, digits, '_' and '-'");
    }
    if (!factory) {
        throw std::invalid_argument("qprof: reporter '" + name +
                                    "' was registered without a factory");
    }
    Registry& reg = registry();
    std::lock_guard lock{reg.mutex};
    for (const Entry& entry : reg.entries) {
        if (entry.name == name) {
            throw std::invalid_argument("qprof: a reporter named '" + name +
                                        "' is already registered; choose another name");
        }
    }
    reg.entries.push_back(Entry{std::move(name), std::move(factory)});
}

std::vector<std::string> reporter_names() {
    Registry& reg = registry();
    std::lock_guard lock{reg.mutex};
    std::vector<std::string> names;
    for (const Entry& entry : reg.entries) {
        names.push_back(entry.name);
    }
    return names;
}

std::unique_ptr<Reporter> make_reporter(std::string_view name) {
    ReporterFactory factory;
    {
        Registry& reg = registry();
        std::lock_guard lock{reg.mutex};
        for (const Entry& entry : reg.entries) {
            if (entry.name == name) {
                factory = entry.factory;
            }
        }
    }
    return factory ? factory() : nullptr;
}

}  // namespace qprof
