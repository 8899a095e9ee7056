#include "deflate.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "deflate_codes.hpp"

namespace qprof::detail {

namespace {

using namespace deflate_codes;
using deflate_block::Symbol;

constexpr std::size_t kWindow = 32'768;  // the farthest a match may reach back
constexpr std::size_t kMinMatch = 4;     // what a position is looked up by
// The shortest match kept: one of 4 bytes takes about as many bits as its literals, and the next
// position may start a longer one (on the payload's columns about 1 % fewer bytes than with 4,
// 5 % fewer than with 3-byte matches up to 4 KiB back; README, issue 14).
constexpr std::size_t kMinLength = 5;
constexpr std::size_t kBlockInput = 128 * 1024;  // input bytes per block, at least
constexpr int kHashBits = 15;
// The positions at the end of a match entered in the table (all of a short one): with none,
// toyc's page's columns take 10 % more bytes, with 16 a third more instructions (README,
// issue 14).
constexpr std::size_t kTailInsert = 8;

std::uint32_t load32(const unsigned char* p) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, 4);
    return v;
}

std::uint32_t hash_of(std::uint32_t word) { return (word * 2'654'435'761u) >> (32 - kHashBits); }

}  // namespace

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

Deflater::Deflater(Sink sink, Container container, Method method)
    : sink_(std::move(sink)),
      head_(method == Method::compress ? std::size_t{1} << kHashBits : 0, 0),
      symbols_(method == Method::compress ? kBlockInput : 0),
      container_(container),
      method_(method) {
    if (container_ == zlib) {
        out_.append({"\x78\x9c", 2});  // deflate with a 32 KiB window; the check bits
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
#if defined(__SSE2__)
        // 16 bytes a step: a grows by their sum, b by 16 times a before them and by each byte
        // weighted by how many of the step's sums it is in (16 for the first, 1 for the last).
        const std::size_t steps = run / 16;
        const __m128i zero = _mm_setzero_si128();
        const __m128i first_weights = _mm_set_epi16(9, 10, 11, 12, 13, 14, 15, 16);
        const __m128i last_weights = _mm_set_epi16(1, 2, 3, 4, 5, 6, 7, 8);
        __m128i sums = zero;         // of the bytes so far
        __m128i sums_before = zero;  // of `sums` before each step
        __m128i weighted = zero;
        for (std::size_t step = 0; step < steps; ++step, p += 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            sums_before = _mm_add_epi32(sums_before, sums);
            sums = _mm_add_epi32(sums, _mm_sad_epu8(v, zero));
            weighted = _mm_add_epi32(
                weighted, _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(v, zero), first_weights),
                                        _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), last_weights)));
        }
        const auto lanes = [](__m128i v) {
            alignas(16) std::uint32_t lane[4];
            _mm_store_si128(reinterpret_cast<__m128i*>(lane), v);
            return lane[0] + lane[1] + lane[2] + lane[3];
        };
        b += a * static_cast<std::uint32_t>(16 * steps) + 16 * lanes(sums_before) + lanes(weighted);
        a += lanes(sums);
#endif
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
    // Whole blocks only, each with a full match's lookahead and the bytes to look up the
    // match's last positions by: the output depends on the bytes alone, not on how they came in.
    while (base_ + window_.size() >= done_ + kBlockInput + kMaxMatch + kMinMatch) {
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
    deflate_block::drain(out_, pending_);
    if (container_ == zlib) {
        const std::uint32_t adler = adler_b_ << 16 | adler_a_;
        for (int shift = 24; shift >= 0; shift -= 8) {
            const char byte = static_cast<char>((adler >> shift) & 0xff);  // big-endian
            out_.append({&byte, 1});
        }
    }
    flush_output();
    finished_ = true;
}

// Greedy LZ77 from done_ to at least `input_end` (a match may run past it), then one block;
// or, to store, the input up to `input_end` as it is.
void Deflater::compress_block(std::size_t input_end, bool last) {
    const std::size_t from = done_ - base_;
    if (method_ == Method::store) {
        deflate_block::write_stored(
            out_, pending_, std::string_view{window_}.substr(from, input_end - done_), last);
        finish_block(input_end);
        return;
    }
    const std::size_t nominal_end = input_end - base_;
    const std::size_t end = window_.size();  // matches may look this far ahead
    const std::size_t look_end = end >= kMinMatch ? end - kMinMatch + 1 : 0;
    const auto* data = reinterpret_cast<const unsigned char*>(window_.data());
    const auto base = static_cast<std::uint32_t>(base_);
    counts_ = {};
    Symbol* symbol = symbols_.data();
    auto literal = [&](std::size_t at) {
        *symbol++ = {data[at], 0};
        ++counts_.literal[data[at]];
    };
    std::size_t at = from;
    while (at < nominal_end) {
        if (at >= look_end) {
            literal(at++);
            continue;
        }
        const std::uint32_t word = load32(data + at);
        std::uint32_t& head = head_[hash_of(word)];
        const std::uint32_t distance = base + static_cast<std::uint32_t>(at) - head;
        head = base + static_cast<std::uint32_t>(at);
        if (distance - 1 >= kWindow || load32(data + at - distance) != word) {
            literal(at++);
            continue;
        }
        const std::size_t length =
            kMinMatch + common_prefix(data + at - distance + kMinMatch, data + at + kMinMatch,
                                      std::min(kMaxMatch, end - at) - kMinMatch);
        if (length < kMinLength) {
            literal(at++);
            continue;
        }
        *symbol++ = {static_cast<std::uint16_t>(length), static_cast<std::uint16_t>(distance)};
        ++counts_.literal[257 + kLengthCode[length]];
        ++counts_.distance[distance_code(distance)];
        at += length;
        for (std::size_t p = at - std::min(kTailInsert, length); p < std::min(at, look_end); ++p) {
            head_[hash_of(load32(data + p))] = base + static_cast<std::uint32_t>(p);
        }
    }
    deflate_block::write_block(
        out_, pending_, {symbols_.data(), static_cast<std::size_t>(symbol - symbols_.data())},
        counts_, std::string_view{window_}.substr(from, at - from), last);
    finish_block(base_ + at);
}

// The input before `done` is compressed: what is written goes to the sink once there is enough
// of it, and the window lets go of what no match can reach.
void Deflater::finish_block(std::uint64_t done) {
    if (out_.view().size() >= 64 * 1024) {
        flush_output();
    }
    done_ = done;
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

void Deflater::flush_output() {
    if (!out_.view().empty()) {
        sink_(out_.view());
        out_.clear();
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
