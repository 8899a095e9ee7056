// The collector's side of keys: the text of each key record, formatted once per distinct key.
// Live, the program's own formatters make the texts (KeyTexts); off-line, the texts come from
// the raw stream (RecordedKeyTexts). Both number texts through one TextIds, in the order
// records first use them, so a run and its saved stream give every key the same id.
#pragma once

#include <array>
#include <cstdint>
#include <qprof/detail/key_record.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "text_ids.hpp"

namespace qprof::detail {

// A key record's type and payload: at most kMaxKeyPayloadWords (a key kept as bytes: 32 bytes at
// most, see kKeyAsBytes; a string kept as its chars: 128, see ShortString). For an interned key,
// the payload is the interned text's id.
struct KeyBytes {
    std::uint32_t type = 0;
    std::array<std::uint64_t, kMaxKeyPayloadWords> payload{};
    bool operator==(const KeyBytes&) const = default;
};
// The hash of a key record's type and payload words.
std::uint64_t hash_key_words(std::uint32_t type, const std::uint64_t* payload, std::uint32_t words);
struct KeyBytesHash {
    std::size_t operator()(const KeyBytes& key) const;
};

// A key's bytes and the text they stand for, as the raw stream records it.
struct KeyBinding {
    KeyBytes bytes;
    std::uint32_t text_id = 0;
};

class KeyTexts {
  public:
    // Payload words of a key record of this type, or 0 for an unknown type or counted chars,
    // whose records say their length (counted, key_payload_words).
    std::uint32_t payload_words(std::uint32_t type) {
        if (type >= types_.size()) [[unlikely]] {
            types_ = registered_key_types();  // registered before the first record of the type
        }
        return type < types_.size() ? types_[type].words : 0;
    }
    // Whether records of this known type are CountedChars.
    bool counted(std::uint32_t type) const { return type < types_.size() && types_[type].counted; }
    // The id (index + 1 into texts()) of the text of a key record's payload. Inline for a key
    // seen before, as this runs for every key record.
    std::uint32_t text_id(std::uint32_t type, const std::uint64_t* payload) {
        if (types_[type].format != nullptr) {
            return bytes_text_id(type, payload, types_[type].words);
        }
        if (types_[type].counted) {  // the text is the chars, as a reader finds them too
            return ids_.id_of_chars(counted_chars(payload));
        }
        const auto program_id = static_cast<std::uint32_t>(payload[0]);
        if (type < by_interned_.size() && program_id < by_interned_[type].size()) {
            if (const std::uint32_t id = by_interned_[type][program_id]) {
                return id;
            }
        }
        return interned_text_id(type, payload);
    }
    std::vector<std::string>& texts() { return ids_.texts(); }

    // The key types known so far (index = type id; 0 unused).
    const std::vector<KeyType>& types() const { return types_; }
    // With bindings kept, each newly formatted key is also remembered until taken.
    void keep_bindings() { keep_bindings_ = true; }
    std::vector<KeyBinding> take_bindings() { return std::move(bindings_); }

  private:
    std::uint32_t bytes_text_id(std::uint32_t type, const std::uint64_t* payload,
                                std::uint32_t words);
    // The first record of an interned key.
    std::uint32_t interned_text_id(std::uint32_t type, const std::uint64_t* payload);
    void remember(const KeyBinding& binding);

    std::vector<KeyType> types_;
    // Keys kept as bytes: each distinct one formatted once, found again by its bytes' hash.
    IdIndex by_bytes_;
    std::vector<KeyBinding> formatted_;  // by index - 1 in by_bytes_
    // Interned keys: by type, then by the id the program gave the text (0: not seen yet). An
    // index, not a hash table: the program has numbered its texts already.
    std::vector<std::vector<std::uint32_t>> by_interned_;
    TextIds ids_;
    bool keep_bindings_ = false;
    std::vector<KeyBinding> bindings_;
};

// The same answers from a saved stream's key types and bindings.
class RecordedKeyTexts {
  public:
    void add_type(std::uint32_t payload_words, bool counted) {
        words_.push_back(payload_words);
        counted_.push_back(counted);
    }
    std::uint32_t type_count() const { return static_cast<std::uint32_t>(words_.size()); }
    void bind(const KeyBytes& bytes, std::string text);

    std::uint32_t payload_words(std::uint32_t type) const {
        return type < words_.size() ? words_[type] : 0;
    }
    bool counted(std::uint32_t type) const { return type < counted_.size() && counted_[type]; }
    // 0 for bytes the stream never bound to a text (counted in unbound()).
    std::uint32_t text_id(std::uint32_t type, const std::uint64_t* payload);
    std::uint64_t unbound() const { return unbound_; }
    std::vector<std::string>& texts() { return ids_.texts(); }

  private:
    struct Bound {
        std::string text;
        std::uint32_t id = 0;  // 0 until a record uses it
    };
    std::vector<std::uint32_t> words_{0};  // by type id; 0 unused
    std::vector<bool> counted_{false};
    std::unordered_map<KeyBytes, Bound, KeyBytesHash> bound_;
    TextIds ids_;
    std::uint64_t unbound_ = 0;
};

// The payload words of the key record at `pos`, whose end is at most `end`: its type's, or for
// counted chars its count's; 0 for an unknown type, or a count cut off by `end` or larger than
// any the program writes.
template <typename Keys>
std::uint32_t key_payload_words(Keys& keys, const std::uint64_t* pos, const std::uint64_t* end) {
    const std::uint32_t type = head_site(*pos);
    if (const std::uint32_t words = keys.payload_words(type)) {
        return words;
    }
    if (end - pos < 2 || !keys.counted(type) || pos[1] > kMaxCountedChars) {
        return 0;
    }
    return static_cast<std::uint32_t>(counted_chars_words(pos[1]));
}

// A key record's bytes, as both resolvers key them.
KeyBytes key_bytes(std::uint32_t type, const std::uint64_t* payload, std::uint32_t words);

}  // namespace qprof::detail
