#include "key_texts.hpp"

#include <algorithm>

namespace qprof::detail {

std::uint64_t hash_key_words(std::uint32_t type, const std::uint64_t* payload,
                             std::uint32_t words) {
    std::uint64_t hash = type;
    for (std::uint32_t i = 0; i < words; ++i) {
        hash = (hash ^ payload[i]) * 0x9e3779b97f4a7c15ull;  // multiplicative mixing
        hash ^= hash >> 29;
    }
    return hash;
}

std::size_t KeyBytesHash::operator()(const KeyBytes& key) const {
    return static_cast<std::size_t>(hash_key_words(key.type, key.payload.data(),
                                                   static_cast<std::uint32_t>(key.payload.size())));
}

KeyBytes key_bytes(std::uint32_t type, const std::uint64_t* payload, std::uint32_t words) {
    KeyBytes bytes{type, {}};
    std::copy_n(payload, std::min<std::size_t>(words, bytes.payload.size()), bytes.payload.begin());
    return bytes;
}

// The bytes are compared in place; only a new key is copied.
std::uint32_t KeyTexts::bytes_text_id(std::uint32_t type, const std::uint64_t* payload,
                                      std::uint32_t words) {
    const std::uint64_t hash = hash_key_words(type, payload, words);
    const std::uint32_t found = by_bytes_.find(hash, [&](std::uint32_t index) {
        const KeyBytes& bytes = formatted_[index - 1].bytes;
        return bytes.type == type && std::equal(payload, payload + words, bytes.payload.begin());
    });
    if (found != 0) {
        return formatted_[found - 1].text_id;
    }
    const KeyBytes bytes = key_bytes(type, payload, words);
    formatted_.push_back(KeyBinding{bytes, ids_.id_of(types_[type].format(payload))});
    by_bytes_.add(hash, static_cast<std::uint32_t>(formatted_.size()));
    remember(formatted_.back());
    return formatted_.back().text_id;
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
    if (counted(type)) {  // its text is in the record: no binding
        return ids_.id_of_chars(counted_chars(payload));
    }
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
