#include "raw_events.hpp"

namespace qprof::detail::raw {

// SITES: u32 first_id, u32 count, count x (u32 line, u8 kind, str provider, str file).
std::size_t SitesBlock::encode(BlockEncoder& out, std::size_t next, std::size_t max_bytes) const {
    out.u32(first_id + static_cast<std::uint32_t>(next));
    const std::size_t count_at = out.later_u32();
    std::uint32_t count = 0;
    for (; next < sites.size() && out.payload_bytes() < max_bytes; ++next, ++count) {
        const RegisteredSite& site = sites[next];
        out.u32(site.line);
        out.u8(static_cast<std::uint8_t>(site.kind));
        out.str(site.provider);
        out.str(site.file);
    }
    out.set_u32(count_at, count);
    return next;
}

// THREAD: u32 thread, str name.
void ThreadBlock::encode(BlockEncoder& out) const {
    out.u32(thread);
    out.str(name);
}

// RECORDS: u32 thread, u32 count, count x u64 words (no padding: the payload is 8 + 8 x count).
void RecordsBlock::encode(BlockEncoder& out) const {
    out.u32(thread);
    out.u32(static_cast<std::uint32_t>(words.size()));
    out.words(words.data(), words.size());
}

// KEY_TYPES: u32 first_id, u32 count, count x (u32 payload_words, u32 flags: bit 0 interned,
// bit 1 counted chars).
void KeyTypesBlock::encode(BlockEncoder& out) const {
    out.u32(first_id);
    out.u32(static_cast<std::uint32_t>(types.size()));
    for (const KeyType& type : types) {
        out.u32(type.payload_words);
        out.u32((type.interned ? 1u : 0u) | (type.counted ? 2u : 0u));
    }
}

// KEY_TEXTS: u32 count, count x (u32 key type, u64 x its payload_words, str text).
std::size_t KeyTextsBlock::encode(BlockEncoder& out, std::size_t next,
                                  std::size_t max_bytes) const {
    const std::size_t count_at = out.later_u32();
    std::uint32_t count = 0;
    for (; next < bindings.size() && out.payload_bytes() < max_bytes; ++next, ++count) {
        const Binding& binding = bindings[next];
        out.u32(binding.bytes.type);
        out.words(binding.bytes.payload.data(), binding.payload_words);
        out.str(binding.text);
    }
    out.set_u32(count_at, count);
    return next;
}

}  // namespace qprof::detail::raw
