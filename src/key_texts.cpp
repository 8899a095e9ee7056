#include "key_texts.hpp"

#include <algorithm>

namespace qprof::detail {

std::size_t KeyTexts::KeyBytesHash::operator()(const KeyBytes& key) const {
    std::uint64_t hash = key.type;
    for (const std::uint64_t word : key.payload) {
        hash = (hash ^ word) * 0x9e3779b97f4a7c15ull;  // multiplicative mixing
        hash ^= hash >> 29;
    }
    return static_cast<std::size_t>(hash);
}

std::uint32_t KeyTexts::payload_words(std::uint32_t type) {
    if (type >= types_.size()) {
        types_ = registered_key_types();  // registered before the first record of the type
    }
    return type < types_.size() ? types_[type].words : 0;
}

std::uint32_t KeyTexts::text_id(std::uint32_t type, const std::uint64_t* payload) {
    const KeyType& key_type = types_[type];
    if (key_type.format == nullptr) {
        return id_of_interned(static_cast<std::uint32_t>(payload[0]));
    }
    KeyBytes bytes{type, {}};
    std::copy_n(payload, std::min<std::size_t>(key_type.words, bytes.payload.size()),
                bytes.payload.begin());
    auto [it, added] = ids_by_bytes_.try_emplace(bytes, 0);
    if (added) {
        std::string text;
        key_type.format(text, payload);
        it->second = id_of_text(std::move(text));
    }
    return it->second;
}

std::uint32_t KeyTexts::id_of_text(std::string text) {
    auto [it, added] =
        ids_by_text_.try_emplace(text, static_cast<std::uint32_t>(texts_.size() + 1));
    if (added) {
        texts_.push_back(std::move(text));
    }
    return it->second;
}

std::uint32_t KeyTexts::id_of_interned(std::uint32_t interned) {
    if (interned >= ids_by_interned_.size()) {
        ids_by_interned_.resize(interned + 1, 0);
    }
    if (ids_by_interned_[interned] == 0) {
        std::vector<std::string> text = interned_key_texts(interned);
        ids_by_interned_[interned] = id_of_text(text.empty() ? std::string{} : text.front());
    }
    return ids_by_interned_[interned];
}

}  // namespace qprof::detail
