// The collector's side of keys: the text of each key record, formatted once per distinct key.
#pragma once

#include <array>
#include <cstdint>
#include <qprof/detail/key_record.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace qprof::detail {

class KeyTexts {
  public:
    // Payload words of a key record of this type, or 0 for an unknown type.
    std::uint32_t payload_words(std::uint32_t type);
    // The id (index + 1 into texts()) of the text of a key record's payload.
    std::uint32_t text_id(std::uint32_t type, const std::uint64_t* payload);
    std::vector<std::string>& texts() { return texts_; }

  private:
    std::uint32_t id_of_text(std::string text);
    std::uint32_t id_of_interned(std::uint32_t interned);

    // A key record's type and payload: at most 32 bytes (see kKeyAsBytes).
    struct KeyBytes {
        std::uint32_t type;
        std::array<std::uint64_t, 4> payload;
        bool operator==(const KeyBytes&) const = default;
    };
    struct KeyBytesHash {
        std::size_t operator()(const KeyBytes& key) const;
    };

    std::vector<KeyType> types_;
    std::unordered_map<KeyBytes, std::uint32_t, KeyBytesHash> ids_by_bytes_;
    std::unordered_map<std::string, std::uint32_t> ids_by_text_;
    std::vector<std::uint32_t> ids_by_interned_;  // interned text id -> our id (0: not yet)
    std::vector<std::string> texts_;
};

}  // namespace qprof::detail
