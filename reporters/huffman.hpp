// Huffman codes as DEFLATE writes them (RFC 1951 3.2.2): lengths of at most a given number of
// bits, codes assigned canonically, stored bit-reversed so that they go out least significant
// bit first. Every code is complete -- even of one symbol or none -- as zlib's inflate insists.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace qprof::detail {

struct HuffmanCode {
    std::vector<std::uint8_t> lengths;  // per symbol, 0 when unused
    std::vector<std::uint16_t> codes;   // per symbol, bit-reversed

    // The bits that symbols counted by `counts` take in this code.
    std::uint64_t cost(std::span<const std::uint32_t> counts) const;
};

// The optimal code for `counts` whose lengths fit in `max_length` bits (counts are halved
// until they do, which costs little: only rare symbols get longer).
HuffmanCode huffman_code(std::span<const std::uint32_t> counts, int max_length);

// The codes of a fixed-Huffman block.
const HuffmanCode& fixed_literal_code();
const HuffmanCode& fixed_distance_code();

}  // namespace qprof::detail
