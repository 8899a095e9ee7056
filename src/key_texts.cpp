#include "key_texts.hpp"

#include <algorithm>

namespace qprof::detail {

std::size_t KeyBytesHash::operator()(const KeyBytes& key) const {
    std::uint64_t hash = key.type;
    for (const std::uint64_t word : key.payload) {
        hash = (hash ^ word) * 0x9e3779b97f4a7c15ull;  // multiplicative mixing
        hash ^= hash >> 29;
    }
    return static_cast<std::size_t>(hash);
}

KeyBytes key_bytes(std::uint32_t type, const std::uint64_t* payload, std::uint32_t words) {
    KeyBytes bytes{type, {}};
    std::copy_n(payload, std::min<std::size_t>(words, bytes.payload.size()), bytes.payload.begin());
    return bytes;
}

std::uint32_t KeyTexts::payload_words(std::uint32_t type) {
    if (type >= types_.size()) {
        types_ = registered_key_types();  // registered before the first record of the type
    }
    return type < types_.size() ? types_[type].words : 0;
}

std::uint32_t KeyTexts::text_id(std::uint32_t type, const std::uint64_t* payload) {
    return types_[type].format == nullptr ? interned_text_id(type, payload)
                                          : bytes_text_id(type, payload);
}

std::uint32_t KeyTexts::bytes_text_id(std::uint32_t type, const std::uint64_t* payload) {
    const KeyType& key_type = types_[type];
    const KeyBytes bytes = key_bytes(type, payload, key_type.words);
    const std::uint64_t hash = KeyBytesHash{}(bytes);
    std::uint32_t index =
        by_bytes_.find(hash, [&](std::uint32_t i) { return formatted_[i - 1].bytes == bytes; });
    if (index == 0) {
        formatted_.push_back(KeyBinding{bytes, ids_.id_of(key_type.format(payload))});
        index = static_cast<std::uint32_t>(formatted_.size());
        by_bytes_.add(hash, index);
        remember(formatted_.back());
    }
    return formatted_[index - 1].text_id;
}

std::uint32_t KeyTexts::interned_text_id(std::uint32_t type, const std::uint64_t* payload) {
    if (type >= by_interned_.size()) {
        by_interned_.resize(type + 1);
    }
    std::vector<std::uint32_t>& ids = by_interned_[type];
    const auto program_id = static_cast<std::uint32_t>(payload[0]);
    if (program_id >= ids.size()) {
        ids.resize(std::max<std::size_t>(program_id + 1, 2 * ids.size()), 0);
    }
    std::uint32_t& id = ids[program_id];
    if (id == 0) {
        id = ids_.id_of(interned_key_text(program_id));
        remember(KeyBinding{key_bytes(type, payload, 1), id});
    }
    return id;
}

void KeyTexts::remember(const KeyBinding& binding) {
    if (keep_bindings_) {
        bindings_.push_back(binding);
    }
}

void RecordedKeyTexts::bind(const KeyBytes& bytes, std::string text) {
    bound_.insert_or_assign(bytes, Bound{std::move(text), 0});
}

std::uint32_t RecordedKeyTexts::text_id(std::uint32_t type, const std::uint64_t* payload) {
    const auto found = bound_.find(key_bytes(type, payload, payload_words(type)));
    if (found == bound_.end()) {
        ++unbound_;
        return 0;
    }
    Bound& bound = found->second;
    if (bound.id == 0) {
        bound.id = ids_.id_of(std::move(bound.text));  // its only use
    }
    return bound.id;
}

}  // namespace qprof::detail
