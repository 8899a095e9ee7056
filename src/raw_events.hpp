// The raw stream's events and what names them: RECORDS (one thread's record words, verbatim)
// and the blocks declared before the records that use them: SITES, THREAD, KEY_TYPES and
// KEY_TEXTS. One definition of each, which the writer and the reader share; docs/raw-format.md
// describes the bytes.
//
//   raw::RecordsBlock{thread, words}.encode(block);              // the writer
//   raw::RecordsBlock records = raw::RecordsBlock::decode(payload, buffer);   // the reader
//
// encode is the runtime's (raw_events.cpp), decode the io layer's (io/raw_events_decode.cpp),
// so that a profiled program links no reading code. A list block (SITES, KEY_TEXTS) is split by the
// writer: encode(out, next, max_bytes) writes the entries from `next` on until the payload reaches
// `max_bytes`, and returns where the next block goes on. decode throws raw::FormatError at the
// offset of the first field that does not fit its block or the declarations before it.
#pragma once

#include <cstdint>
#include <qprof/detail/site.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "key_texts.hpp"
#include "raw_format.hpp"

namespace qprof::detail::raw {

struct SitesBlock {
    std::uint32_t first_id = 0;  // of sites[0]
    std::vector<RegisteredSite> sites;

    std::size_t encode(BlockEncoder& out, std::size_t next, std::size_t max_bytes) const;
    // `next_id`: the first site id not yet declared, which the block must start at.
    static SitesBlock decode(PayloadReader& in, std::uint32_t next_id);
};

// A thread's name: given before its first RECORDS, again when it changed by the end.
struct ThreadBlock {
    std::uint32_t thread = 0;  // less than kMaxThreads
    std::string name;

    void encode(BlockEncoder& out) const;
    static ThreadBlock decode(PayloadReader& in);
};

struct RecordsBlock {
    std::uint32_t thread = 0;  // less than kMaxThreads
    std::span<const std::uint64_t> words;
    std::uint64_t words_at = 0;  // decoded: the words' offset in the file

    void encode(BlockEncoder& out) const;
    // The words are copied into `buffer` (aligned; the payload's need not be), which `words`
    // then views.
    static RecordsBlock decode(PayloadReader& in, std::vector<std::uint64_t>& buffer);
};

struct KeyTypesBlock {
    struct KeyType {
        std::uint32_t payload_words = 0;  // 1 to 16: the words after a key record's head
        bool interned = false;            // the payload is the id of a text the program made
        bool counted = false;  // payload_words 0: each record's first word counts its chars
    };
    std::uint32_t first_id = 0;  // of types[0]
    std::vector<KeyType> types;

    void encode(BlockEncoder& out) const;
    // `next_id`: the first key type id not yet declared, which the block must start at.
    static KeyTypesBlock decode(PayloadReader& in, std::uint32_t next_id);
};

struct KeyTextsBlock {
    // A key record's payload and its text; `text` views the writer's texts or the payload.
    struct Binding {
        KeyBytes bytes;
        std::uint32_t payload_words = 0;  // of the key type
        std::string_view text;
    };
    std::vector<Binding> bindings;

    std::size_t encode(BlockEncoder& out, std::size_t next, std::size_t max_bytes) const;
    // `keys`: the key types declared so far, which give each binding's payload words.
    static KeyTextsBlock decode(PayloadReader& in, const RecordedKeyTexts& keys);
};

}  // namespace qprof::detail::raw
