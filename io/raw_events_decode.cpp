// The decode halves of SITES, THREAD, RECORDS, KEY_TYPES and KEY_TEXTS (src/raw_events.hpp),
// which only readers link.
#include <string>

#include "raw_cursor.hpp"
#include "raw_events.hpp"

namespace qprof::detail::raw {

namespace {

std::uint32_t decode_thread(PayloadReader& in) {
    const std::uint64_t at = in.offset();
    const std::uint32_t thread = in.u32();
    if (thread >= kMaxThreads) {
        in.fail("thread index " + std::to_string(thread) + " (expected less than " +
                    std::to_string(kMaxThreads) + ")",
                at);
    }
    return thread;
}

// A list's first id, which must be the next one not yet declared.
std::uint32_t decode_first_id(PayloadReader& in, std::uint32_t next_id, std::string_view what,
                              std::string_view expected) {
    const std::uint64_t at = in.offset();
    const std::uint32_t first = in.u32();
    if (first != next_id) {
        in.fail(std::string{what} + " start at id " + std::to_string(first) + " (expected " +
                    std::to_string(next_id) + std::string{expected} + ")",
                at);
    }
    return first;
}

}  // namespace

SitesBlock SitesBlock::decode(PayloadReader& in, std::uint32_t next_id) {
    SitesBlock block;
    block.first_id = decode_first_id(in, next_id, "sites", ", the next undeclared id");
    const std::uint32_t count = in.u32();
    for (std::uint32_t i = 0; i < count; ++i) {
        RegisteredSite site{};
        site.line = in.u32();
        const std::uint64_t kind_at = in.offset();
        const std::uint8_t kind = in.u8();
        if (kind > static_cast<std::uint8_t>(SiteKind::counter)) {
            in.fail("unknown site kind " + std::to_string(kind) +
                        " (expected 0 query, 1 activity, 2 region, 3 size or 4 counter)",
                    kind_at);
        }
        site.kind = static_cast<SiteKind>(kind);
        site.provider = std::string{in.str()};
        site.file = std::string{in.str()};
        block.sites.push_back(std::move(site));
    }
    return block;
}

ThreadBlock ThreadBlock::decode(PayloadReader& in) {
    ThreadBlock block;
    block.thread = decode_thread(in);
    block.name = std::string{in.str()};
    return block;
}

RecordsBlock RecordsBlock::decode(PayloadReader& in, std::vector<std::uint64_t>& buffer) {
    RecordsBlock block;
    block.thread = decode_thread(in);
    const std::uint64_t count_at = in.offset();
    const std::uint32_t count = in.u32();
    if (count == 0 || count > in.remaining() / 8) {
        in.fail(std::to_string(count) + " record words declared (expected 1 to " +
                    std::to_string(in.remaining() / 8) + ", what the block holds)",
                count_at);
    }
    block.words_at = in.offset();
    buffer.resize(count);
    in.words(buffer.data(), count);
    block.words = buffer;
    return block;
}

KeyTypesBlock KeyTypesBlock::decode(PayloadReader& in, std::uint32_t next_id) {
    KeyTypesBlock block;
    block.first_id = decode_first_id(in, next_id, "key types", "");
    const std::uint32_t count = in.u32();
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t words_at = in.offset();
        const std::uint32_t words = in.u32();
        const std::uint32_t flags = in.u32();
        const bool counted = (flags & 2) != 0;
        if (counted && words != 0) {
            in.fail("counted key type of " + std::to_string(words) +
                        " payload words (expected 0: its records count their words)",
                    words_at);
        }
        if (!counted && (words < 1 || words > kMaxKeyPayloadWords)) {
            in.fail("key type of " + std::to_string(words) + " payload words (expected 1 to " +
                        std::to_string(kMaxKeyPayloadWords) + ")",
                    words_at);
        }
        block.types.push_back(
            {.payload_words = words, .interned = (flags & 1) != 0, .counted = counted});
    }
    return block;
}

KeyTextsBlock KeyTextsBlock::decode(PayloadReader& in, const RecordedKeyTexts& keys) {
    KeyTextsBlock block;
    const std::uint32_t count = in.u32();
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t type_at = in.offset();
        Binding binding{.bytes = {in.u32(), {}}, .payload_words = 0, .text = {}};
        binding.payload_words = keys.payload_words(binding.bytes.type);
        if (keys.counted(binding.bytes.type)) {
            in.fail("key text for counted key type " + std::to_string(binding.bytes.type) +
                        " (its records hold their text)",
                    type_at);
        }
        if (binding.payload_words == 0) {
            in.fail("key text for undeclared key type " + std::to_string(binding.bytes.type),
                    type_at);
        }
        in.words(binding.bytes.payload.data(), binding.payload_words);
        binding.text = in.str();
        block.bindings.push_back(binding);
    }
    return block;
}

}  // namespace qprof::detail::raw
