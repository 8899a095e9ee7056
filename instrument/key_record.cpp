// The tables behind key records: key types, and the interned texts of keys formatted at once.
#include <qprof/detail/key_record.hpp>

namespace qprof::detail {

bool g_record_keys = false;

namespace {

struct KeyTables {
    std::mutex mutex;
    std::vector<KeyType> types{KeyType{}};  // id 0 stays unused
    std::vector<std::string> texts{""};     // id 0 stays unused
    std::unordered_map<std::string, std::uint32_t> text_ids;
};

KeyTables& key_tables() {
    static KeyTables* tables = new KeyTables;  // never destroyed, like the sites
    return *tables;
}

}  // namespace

std::uint32_t register_key_type(KeyType type) {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    tables.types.push_back(type);
    return static_cast<std::uint32_t>(tables.types.size() - 1);
}

std::vector<KeyType> registered_key_types() {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    return tables.types;
}

std::uint32_t intern_key_text(std::string text) {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    auto [it, added] =
        tables.text_ids.try_emplace(text, static_cast<std::uint32_t>(tables.texts.size()));
    if (added) {
        tables.texts.push_back(std::move(text));
    }
    return it->second;
}

std::vector<std::string> interned_key_texts(std::uint32_t first) {
    KeyTables& tables = key_tables();
    std::lock_guard lock{tables.mutex};
    if (first >= tables.texts.size()) {
        return {};
    }
    return std::vector<std::string>(tables.texts.begin() + first, tables.texts.end());
}

}  // namespace qprof::detail
