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

std::uint32_t KeyTextIds::id_of_text(std::string text) {
    auto [it, added] =
        ids_by_text_.try_emplace(text, static_cast<std::uint32_t>(texts_.size() + 1));
    if (added) {
        texts_.push_back(std::move(text));
    }
    return it->second;
}

std::uint32_t KeyTexts::payload_words(std::uint32_t type) {
    if (type >= types_.size()) {
        types_ = registered_key_types();  // registered before the first record of the type
    }
    return type < types_.size() ? types_[type].words : 0;
}

std::uint32_t KeyTexts::text_id(std::uint32_t type, const std::uint64_t* payload) {
    const KeyType& key_type = types_[type];
    const KeyBytes bytes = key_bytes(type, payload, key_type.words);
    auto [it, added] = ids_by_bytes_.try_emplace(bytes, 0);
    if (added) {
        std::string text;
        if (key_type.format == nullptr) {
            text = interned_key_text(static_cast<std::uint32_t>(payload[0]));
        } else {
            key_type.format(text, payload);
        }
        it->second = remember(bytes, ids_.id_of_text(std::move(text)));
    }
    return it->second;
}

std::uint32_t KeyTexts::remember(const KeyBytes& bytes, std::uint32_t text_id) {
    if (keep_bindings_) {
        bindings_.push_back(KeyBinding{bytes, text_id});
    }
    return text_id;
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
        bound.id = ids_.id_of_text(bound.text);
    }
    return bound.id;
}

}  // namespace qprof::detail
