#include "deflate_block.hpp"

#include <algorithm>
#include <vector>

#include "huffman.hpp"

namespace qprof::detail::deflate_block {

namespace {

using namespace deflate_codes;

constexpr std::size_t kStoredMax = 65'535;

// One block's codes, and the code length code that writes a dynamic block's header.
struct BlockCodes {
    HuffmanCode literal;
    HuffmanCode distance;
    HuffmanCode code_length;
    std::vector<std::uint8_t>
        lengths_rle;  // code length symbols, each 16/17/18 followed by its repeat
    int literal_codes = 257;
    int distance_codes = 1;
    int code_length_codes = 4;
};

// Run-length codes the literal and distance code lengths as the dynamic header lists them.
void encode_lengths(BlockCodes& block) {
    std::vector<std::uint8_t> all(block.literal.lengths.begin(),
                                  block.literal.lengths.begin() + block.literal_codes);
    all.insert(all.end(), block.distance.lengths.begin(),
               block.distance.lengths.begin() + block.distance_codes);
    std::array<std::uint32_t, kCodeLengthCodes> counts{};
    auto add = [&](std::uint8_t symbol, std::size_t repeat) {
        block.lengths_rle.insert(block.lengths_rle.end(),
                                 {symbol, static_cast<std::uint8_t>(repeat)});
        ++counts[symbol];
    };
    for (std::size_t i = 0; i < all.size();) {
        std::size_t run = 1;
        while (i + run < all.size() && all[i + run] == all[i]) {
            ++run;
        }
        std::size_t left = run;
        if (all[i] == 0) {
            for (; left >= 3;) {
                const std::size_t take = std::min<std::size_t>(left, 138);
                add(take >= 11 ? 18 : 17, take);
                left -= take;
            }
        } else {
            add(all[i], 0);
            --left;
            for (; left >= 3;) {
                const std::size_t take = std::min<std::size_t>(left, 6);
                add(16, take);
                left -= take;
            }
        }
        for (; left > 0; --left) {
            add(all[i], 0);
        }
        i += run;
    }
    block.code_length = huffman_code(counts, 7);
    block.code_length_codes = kCodeLengthCodes;
    while (block.code_length_codes > 4 &&
           block.code_length.lengths[kCodeLengthOrder[block.code_length_codes - 1]] == 0) {
        --block.code_length_codes;
    }
}

std::uint64_t extra_bits(const SymbolCounts& counts) {
    std::uint64_t bits = 0;
    for (std::size_t code = 0; code < kLengthExtra.size(); ++code) {
        bits += std::uint64_t{counts.literal[257 + code]} * kLengthExtra[code];
    }
    for (std::size_t code = 0; code < kDistanceExtra.size(); ++code) {
        bits += std::uint64_t{counts.distance[code]} * kDistanceExtra[code];
    }
    return bits;
}

std::uint64_t dynamic_bits(const BlockCodes& block, const SymbolCounts& counts) {
    std::uint64_t bits = 3 + 14 + 3 * std::uint64_t(block.code_length_codes);
    for (std::size_t i = 0; i < block.lengths_rle.size(); i += 2) {
        const std::uint8_t symbol = block.lengths_rle[i];
        bits += block.code_length.lengths[symbol] + (symbol == 16   ? 2
                                                     : symbol == 17 ? 3
                                                     : symbol == 18 ? 7
                                                                    : 0);
    }
    bits += block.literal.cost(counts.literal) + block.distance.cost(counts.distance);
    return bits + extra_bits(counts);
}

std::uint64_t fixed_bits(const SymbolCounts& counts) {
    return 3 + fixed_literal_code().cost(counts.literal) +
           fixed_distance_code().cost(counts.distance) + extra_bits(counts);
}

void put_symbol(BitWriter& bits, const HuffmanCode& code, int symbol) {
    bits.put(code.codes[symbol], code.lengths[symbol]);
}

void write_header(BitWriter& bits, const BlockCodes& block) {
    bits.put(block.literal_codes - 257, 5);
    bits.put(block.distance_codes - 1, 5);
    bits.put(block.code_length_codes - 4, 4);
    bits.flush();
    for (int i = 0; i < block.code_length_codes; ++i) {
        bits.put(block.code_length.lengths[kCodeLengthOrder[i]], 3);
        bits.flush();
    }
    for (std::size_t i = 0; i < block.lengths_rle.size(); i += 2) {
        const std::uint8_t symbol = block.lengths_rle[i];
        const std::uint8_t repeat = block.lengths_rle[i + 1];
        put_symbol(bits, block.code_length, symbol);
        if (symbol == 16) {
            bits.put(repeat - 3, 2);
        } else if (symbol == 17) {
            bits.put(repeat - 3, 3);
        } else if (symbol == 18) {
            bits.put(repeat - 11, 7);
        }
        bits.flush();
    }
}

// The symbols in `literal` and `distance`: each code with its extra bits, looked up per
// literal or match length (a table of 259) and per distance code.
void write_symbols(BitWriter& bits, std::span<const Symbol> symbols, const HuffmanCode& literal,
                   const HuffmanCode& distance) {
    struct Code {
        std::uint32_t bits;
        std::uint32_t count;
    };
    std::array<Code, kMaxMatch + 1> by_length{};  // a literal byte, or a length from 3
    for (std::size_t byte = 0; byte < 256; ++byte) {
        by_length[byte] = {literal.codes[byte], literal.lengths[byte]};
    }
    std::array<Code, kMaxMatch + 1> match_length{};
    for (std::size_t length = 3; length <= kMaxMatch; ++length) {
        const int code = kLengthCode[length];
        const int symbol = 257 + code;
        match_length[length] = {
            literal.codes[symbol] | static_cast<std::uint32_t>(length - kLengthBase[code])
                                        << literal.lengths[symbol],
            static_cast<std::uint32_t>(literal.lengths[symbol] + kLengthExtra[code])};
    }
    for (const Symbol& s : symbols) {
        if (s.distance == 0) {
            const Code c = by_length[s.length_or_literal];
            bits.put(c.bits, static_cast<int>(c.count));
        } else {
            const Code c = match_length[s.length_or_literal];
            bits.put(c.bits, static_cast<int>(c.count));  // at most 20 bits
            const int code = distance_code(s.distance);
            bits.put(distance.codes[code] | (s.distance - kDistanceBase[code])
                                                << distance.lengths[code],
                     distance.lengths[code] + kDistanceExtra[code]);  // at most 28
        }
        bits.flush();
    }
    put_symbol(bits, literal, kEndOfBlock);
    bits.flush();
}

// `input` as stored blocks (BTYPE 00) of at most kStoredMax bytes each, the last one final if
// `last`; an empty input is one empty block.
void put_stored(BitWriter& bits, std::string_view input, bool last) {
    const std::size_t size = input.size();
    std::size_t at = 0;
    do {
        const std::size_t piece = std::min(kStoredMax, size - at);
        bits.put(last && at + piece == size ? 1 : 0, 3);  // BTYPE 00: stored
        bits.align();
        bits.put(piece | (~piece & 0xffff) << 16, 32);
        bits.flush();
        bits.put_bytes(input.substr(at, piece));
        at += piece;
    } while (at < size);
}

std::size_t stored_pieces(std::size_t size) {
    return std::max<std::size_t>(1, (size + kStoredMax - 1) / kStoredMax);
}

}  // namespace

void write_block(Output& out, PendingBits& pending, std::span<const Symbol> symbols,
                 const SymbolCounts& counts, std::string_view input, bool last) {
    BlockCodes block;
    SymbolCounts with_end = counts;
    with_end.literal[kEndOfBlock] = 1;
    block.literal = huffman_code(with_end.literal, 15);
    block.distance = huffman_code(with_end.distance, 15);
    block.literal_codes = kLiteralLengthCodes;
    while (block.literal_codes > 257 && block.literal.lengths[block.literal_codes - 1] == 0) {
        --block.literal_codes;
    }
    block.distance_codes = kDistanceCodes;
    while (block.distance_codes > 1 && block.distance.lengths[block.distance_codes - 1] == 0) {
        --block.distance_codes;
    }
    encode_lengths(block);

    const std::uint64_t dynamic = dynamic_bits(block, with_end);
    const std::uint64_t fixed = fixed_bits(with_end);
    const std::size_t size = input.size();
    const std::size_t pieces = stored_pieces(size);
    const std::uint64_t stored = (pieces * 5 + size) * 8 + 7;
    // Room for the block whatever its kind: a literal takes at most 15 bits, a match of 3
    // bytes or more at most 48, the header less than 1 KiB; and 8 bytes for the last flush.
    BitWriter bits{out.room(std::max(2 * size, size + pieces * 5) + 1024 + 8), pending.bits,
                   pending.count};
    if (stored < dynamic && stored < fixed) {
        put_stored(bits, input, last);
    } else {
        const bool use_fixed = fixed <= dynamic;
        bits.put((last ? 1 : 0) | (use_fixed ? 1 : 2) << 1, 3);
        if (!use_fixed) {
            write_header(bits, block);
        }
        write_symbols(bits, symbols, use_fixed ? fixed_literal_code() : block.literal,
                      use_fixed ? fixed_distance_code() : block.distance);
    }
    out.written_to(bits.end());
    pending = {bits.bits(), bits.count()};
}

void write_stored(Output& out, PendingBits& pending, std::string_view input, bool last) {
    // Each piece: its header with the bits pending before it, padded (2 bytes at most), and 4
    // bytes of length; and 8 for the last flush.
    BitWriter bits{out.room(input.size() + stored_pieces(input.size()) * 6 + 8), pending.bits,
                   pending.count};
    put_stored(bits, input, last);
    out.written_to(bits.end());
    pending = {bits.bits(), bits.count()};
}

void drain(Output& out, PendingBits& pending) {
    BitWriter bits{out.room(16), pending.bits, pending.count};
    bits.align();
    out.written_to(bits.end());
    pending = {};
}

}  // namespace qprof::detail::deflate_block
