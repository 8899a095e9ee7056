#include "deflate.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "deflate_codes.hpp"
#include "huffman.hpp"

namespace qprof::detail {

namespace {

using namespace deflate_codes;

constexpr std::size_t kWindow = 32'768;  // the farthest a match may reach back
constexpr std::size_t kMinMatch = 3;
constexpr std::size_t kBlockInput = 128 * 1024;  // input bytes per block, at least
constexpr int kHashBits = 15;
// The search's limits, like a fast zlib level: candidates tried per position, a match long
// enough to end the search, and the longest match whose positions are all hashed (those inside
// a longer one would mostly find what it found). Against 16, 64 and every position, the
// payload's columns take 40-55 % fewer instructions and 2-5 % more bytes (README, issue 14).
constexpr int kMaxChain = 8;
constexpr std::size_t kGoodEnough = 32;
constexpr std::size_t kMaxInsert = 8;
constexpr std::size_t kTailInsert = 3;  // the positions at the end of a longer match hashed
constexpr std::size_t kStoredMax = 65'535;

std::uint32_t hash_at(const unsigned char* p) {
    const std::uint32_t v = p[0] | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16);
    return (v * 2'654'435'761u) >> (32 - kHashBits);
}

// How many bytes `a` and `b` have in common at their start, at most `limit`: a word at a time.
std::size_t common_prefix(const unsigned char* a, const unsigned char* b, std::size_t limit) {
    std::size_t length = 0;
    for (; length + 8 <= limit; length += 8) {
        std::uint64_t x = 0;
        std::uint64_t y = 0;
        std::memcpy(&x, a + length, 8);
        std::memcpy(&y, b + length, 8);
        if (x != y) {
            return length + static_cast<std::size_t>(std::countr_zero(x ^ y) / 8);
        }
    }
    while (length < limit && a[length] == b[length]) {
        ++length;
    }
    return length;
}

// One block's symbol counts and the codes that would write it.
struct BlockCodes {
    std::array<std::uint32_t, kLiteralLengthCodes> literal_count{};
    std::array<std::uint32_t, kDistanceCodes> distance_count{};
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
    for (std::size_t i = 0; i < all.size();) {
        std::size_t run = 1;
        while (i + run < all.size() && all[i + run] == all[i]) {
            ++run;
        }
        std::size_t left = run;
        if (all[i] == 0) {
            for (; left >= 3;) {
                const std::size_t take = std::min<std::size_t>(left, 138);
                const std::uint8_t symbol = take >= 11 ? 18 : 17;
                block.lengths_rle.insert(block.lengths_rle.end(),
                                         {symbol, static_cast<std::uint8_t>(take)});
                ++counts[symbol];
                left -= take;
            }
        } else {
            block.lengths_rle.insert(block.lengths_rle.end(), {all[i], 0});
            ++counts[all[i]];
            --left;
            for (; left >= 3;) {
                const std::size_t take = std::min<std::size_t>(left, 6);
                block.lengths_rle.insert(block.lengths_rle.end(),
                                         {std::uint8_t{16}, static_cast<std::uint8_t>(take)});
                ++counts[16];
                left -= take;
            }
        }
        for (; left > 0; --left) {
            block.lengths_rle.insert(block.lengths_rle.end(), {all[i], 0});
            ++counts[all[i]];
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

std::uint64_t extra_bits(const BlockCodes& block) {
    std::uint64_t bits = 0;
    for (std::size_t code = 0; code < kLengthExtra.size(); ++code) {
        bits += std::uint64_t{block.literal_count[257 + code]} * kLengthExtra[code];
    }
    for (std::size_t code = 0; code < kDistanceExtra.size(); ++code) {
        bits += std::uint64_t{block.distance_count[code]} * kDistanceExtra[code];
    }
    return bits;
}

std::uint64_t dynamic_bits(const BlockCodes& block) {
    std::uint64_t bits = 3 + 14 + 3 * std::uint64_t(block.code_length_codes);
    for (std::size_t i = 0; i < block.lengths_rle.size(); i += 2) {
        const std::uint8_t symbol = block.lengths_rle[i];
        bits += block.code_length.lengths[symbol] + (symbol == 16   ? 2
                                                     : symbol == 17 ? 3
                                                     : symbol == 18 ? 7
                                                                    : 0);
    }
    bits += block.literal.cost(block.literal_count) + block.distance.cost(block.distance_count);
    return bits + extra_bits(block);
}

std::uint64_t fixed_bits(const BlockCodes& block) {
    return 3 + fixed_literal_code().cost(block.literal_count) +
           fixed_distance_code().cost(block.distance_count) + extra_bits(block);
}

}  // namespace

Deflater::Deflater(Sink sink, Container container)
    : sink_(std::move(sink)),
      head_(std::size_t{1} << kHashBits, -1),
      prev_(kWindow, -1),
      container_(container) {
    if (container_ == zlib) {
        out_.append("\x78\x9c", 2);  // deflate with a 32 KiB window; the check bits
    }
}

void Deflater::add_to_adler(std::string_view bytes) {
    constexpr std::uint32_t kModulus = 65'521;
    constexpr std::size_t kRun = 5'552;  // the most bytes before b can overflow 32 bits
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t at = 0; at < bytes.size(); at += kRun) {
        const std::size_t run = std::min(kRun, bytes.size() - at);
        std::uint32_t a = adler_a_;
        std::uint32_t b = adler_b_;
        const unsigned char* p = data + at;
        for (const unsigned char* const fours = p + run / 4 * 4; p != fours; p += 4) {
            a += p[0];
            b += a;
            a += p[1];
            b += a;
            a += p[2];
            b += a;
            a += p[3];
            b += a;
        }
        for (; p != data + at + run; ++p) {
            a += *p;
            b += a;
        }
        adler_a_ = a % kModulus;
        adler_b_ = b % kModulus;
    }
}

void Deflater::write(std::string_view bytes) {
    if (container_ == zlib) {
        add_to_adler(bytes);
    }
    window_.append(bytes);
    // Whole blocks only, each with a full match's lookahead: the output depends on the bytes
    // alone, not on how they came in.
    while (base_ + window_.size() >= done_ + kBlockInput + kMaxMatch) {
        compress_block(done_ + kBlockInput, false);
    }
}

void Deflater::finish() {
    if (finished_) {
        return;
    }
    const std::uint64_t end = base_ + window_.size();
    do {
        const std::uint64_t block_end = std::min<std::uint64_t>(end, done_ + kBlockInput);
        compress_block(block_end, block_end == end);
    } while (done_ < end);
    drain_bytes();
    if (container_ == zlib) {
        const std::uint32_t adler = adler_b_ << 16 | adler_a_;
        for (int shift = 24; shift >= 0; shift -= 8) {
            out_ += static_cast<char>((adler >> shift) & 0xff);  // big-endian
        }
    }
    flush_output();
    finished_ = true;
}

void Deflater::insert_hash(std::size_t at, std::uint32_t h) {
    const std::uint64_t absolute = base_ + at;
    prev_[absolute % kWindow] = head_[h];
    head_[h] = static_cast<std::int64_t>(absolute);
}

// The longest earlier match for the bytes at `at` (window offsets), not past `end`, among the
// positions of hash chain `h`.
std::size_t Deflater::longest_match(std::size_t at, std::size_t end, std::uint32_t h,
                                    std::size_t& distance) const {
    const auto* data = reinterpret_cast<const unsigned char*>(window_.data());
    const std::size_t limit = std::min(kMaxMatch, end - at);
    const std::int64_t here = static_cast<std::int64_t>(base_ + at);
    std::int64_t candidate = head_[h];
    std::size_t best = kMinMatch - 1;
    for (int tries = kMaxChain; tries > 0 && candidate >= 0; --tries) {
        if (static_cast<std::uint64_t>(here - candidate) > kWindow) {
            break;  // too far, or a stale link: positions on a chain only go back
        }
        const unsigned char* from = data + (candidate - static_cast<std::int64_t>(base_));
        if (from[best] == data[at + best]) {
            const std::size_t length = common_prefix(from, data + at, limit);
            if (length > best) {
                best = length;
                distance = static_cast<std::size_t>(here - candidate);
                if (length >= kGoodEnough || length == limit) {
                    break;
                }
            }
        }
        candidate = prev_[static_cast<std::uint64_t>(candidate) % kWindow];
    }
    return best >= kMinMatch ? best : 0;
}

// LZ77 from done_ to at least `input_end` (a match may run past it), then one block.
void Deflater::compress_block(std::size_t input_end, bool last) {
    const std::size_t from = done_ - base_;
    const std::size_t nominal_end = input_end - base_;
    const std::size_t end = window_.size();  // matches may look this far ahead
    symbols_.clear();
    const auto* data = reinterpret_cast<const unsigned char*>(window_.data());
    std::size_t at = from;
    while (at < nominal_end) {
        if (at + kMinMatch > end) {
            symbols_.push_back({data[at], 0});
            ++at;
            continue;
        }
        const std::uint32_t h = hash_at(data + at);
        std::size_t distance = 0;
        const std::size_t length = longest_match(at, end, h, distance);
        insert_hash(at, h);
        if (length == 0) {
            symbols_.push_back({data[at], 0});
            ++at;
            continue;
        }
        symbols_.push_back(
            {static_cast<std::uint16_t>(length), static_cast<std::uint16_t>(distance)});
        // A long match's last positions are hashed, so that a run goes on at distance 1.
        const std::size_t match_end = at + length;
        at = length <= kMaxInsert ? at + 1 : match_end - kTailInsert;
        for (; at < match_end && at + kMinMatch <= end; ++at) {
            insert_hash(at, hash_at(data + at));
        }
        at = match_end;
    }
    write_block(from, at, last);
    done_ = base_ + at;
    slide();
}

// Drops input more than a window behind done_, once that is at least half of what is held:
// the copy of what remains then costs no more than the compression of what was dropped.
void Deflater::slide() {
    const std::size_t behind = done_ - base_;
    if (behind < kWindow + kBlockInput || behind - kWindow < window_.size() / 2) {
        return;
    }
    const std::size_t drop = behind - kWindow;
    window_.erase(0, drop);
    base_ += drop;
}

// Bits go out four bytes at a time; drain_bytes() writes what whole bytes remain.
void Deflater::put_bits(std::uint32_t bits, int count) {
    bit_buffer_ |= std::uint64_t{bits} << bit_count_;
    bit_count_ += count;
    if (bit_count_ >= 32) {
        const char bytes[4] = {static_cast<char>(bit_buffer_), static_cast<char>(bit_buffer_ >> 8),
                               static_cast<char>(bit_buffer_ >> 16),
                               static_cast<char>(bit_buffer_ >> 24)};
        out_.append(bytes, 4);
        bit_buffer_ >>= 32;
        bit_count_ -= 32;
    }
}

// Pads to a byte boundary with zero bits and writes every buffered byte.
void Deflater::drain_bytes() {
    bit_count_ = (bit_count_ + 7) / 8 * 8;
    for (; bit_count_ > 0; bit_count_ -= 8) {
        out_ += static_cast<char>(bit_buffer_ & 0xff);
        bit_buffer_ >>= 8;
    }
}

void Deflater::flush_output() {
    if (!out_.empty()) {
        sink_(out_);
        out_.clear();
    }
}

// The symbols of window_[from, to) as the smallest of a dynamic, fixed or stored block.
void Deflater::write_block(std::size_t from, std::size_t to, bool last) {
    BlockCodes block;
    for (const Symbol& s : symbols_) {
        if (s.distance == 0) {
            ++block.literal_count[s.length_or_literal];
        } else {
            ++block.literal_count[257 + kLengthCode[s.length_or_literal]];
            ++block.distance_count[distance_code(s.distance)];
        }
    }
    block.literal_count[kEndOfBlock] = 1;
    block.literal = huffman_code(block.literal_count, 15);
    block.distance = huffman_code(block.distance_count, 15);
    block.literal_codes = kLiteralLengthCodes;
    while (block.literal_codes > 257 && block.literal.lengths[block.literal_codes - 1] == 0) {
        --block.literal_codes;
    }
    block.distance_codes = kDistanceCodes;
    while (block.distance_codes > 1 && block.distance.lengths[block.distance_codes - 1] == 0) {
        --block.distance_codes;
    }
    encode_lengths(block);

    const std::uint64_t dynamic = dynamic_bits(block);
    const std::uint64_t fixed = fixed_bits(block);
    const std::size_t size = to - from;
    const std::uint64_t stored =
        (std::max<std::size_t>(1, (size + kStoredMax - 1) / kStoredMax) * 5 + size) * 8 + 7;
    if (stored < dynamic && stored < fixed) {
        std::size_t at = from;
        do {
            const std::size_t piece = std::min(kStoredMax, to - at);
            put_bits(last && at + piece == to ? 1 : 0, 3);  // BTYPE 00: stored
            drain_bytes();
            put_bits(static_cast<std::uint32_t>(piece), 16);
            put_bits(static_cast<std::uint32_t>(~piece & 0xffff), 16);
            drain_bytes();
            out_.append(window_, at, piece);
            at += piece;
        } while (at < to);
    } else {
        const bool use_fixed = fixed <= dynamic;
        const HuffmanCode& literal = use_fixed ? fixed_literal_code() : block.literal;
        const HuffmanCode& distance = use_fixed ? fixed_distance_code() : block.distance;
        put_bits((last ? 1 : 0) | (use_fixed ? 1 : 2) << 1, 3);
        if (!use_fixed) {
            put_bits(block.literal_codes - 257, 5);
            put_bits(block.distance_codes - 1, 5);
            put_bits(block.code_length_codes - 4, 4);
            for (int i = 0; i < block.code_length_codes; ++i) {
                put_bits(block.code_length.lengths[kCodeLengthOrder[i]], 3);
            }
            for (std::size_t i = 0; i < block.lengths_rle.size(); i += 2) {
                const std::uint8_t symbol = block.lengths_rle[i];
                const std::uint8_t repeat = block.lengths_rle[i + 1];
                put_symbol(block.code_length, symbol);
                if (symbol == 16) {
                    put_bits(repeat - 3, 2);
                } else if (symbol == 17) {
                    put_bits(repeat - 3, 3);
                } else if (symbol == 18) {
                    put_bits(repeat - 11, 7);
                }
            }
        }
        for (const Symbol& s : symbols_) {
            if (s.distance == 0) {
                put_symbol(literal, s.length_or_literal);
                continue;
            }
            // Each code with its extra bits in one call: at most 15 + 13 bits.
            const int length_code = kLengthCode[s.length_or_literal];
            const int length_symbol = 257 + length_code;
            put_bits(literal.codes[length_symbol] | (s.length_or_literal - kLengthBase[length_code])
                                                        << literal.lengths[length_symbol],
                     literal.lengths[length_symbol] + kLengthExtra[length_code]);
            const int code = distance_code(s.distance);
            put_bits(distance.codes[code] | (s.distance - kDistanceBase[code])
                                                << distance.lengths[code],
                     distance.lengths[code] + kDistanceExtra[code]);
        }
        put_symbol(literal, kEndOfBlock);
    }
    if (out_.size() >= 64 * 1024) {
        flush_output();
    }
}

std::string deflate_raw(std::string_view data) {
    std::string packed;
    Deflater deflater{[&](std::string_view bytes) { packed += bytes; }};
    deflater.write(data);
    deflater.finish();
    return packed;
}

}  // namespace qprof::detail
