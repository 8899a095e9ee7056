// DEFLATE's fixed alphabet (RFC 1951 3.2.5-3.2.7): the symbols of lengths and distances with
// their extra bits, and the order of a dynamic block's code length code. Used by deflate.cpp.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace qprof::detail::deflate_codes {

inline constexpr std::size_t kMaxMatch = 258;
inline constexpr int kEndOfBlock = 256;
inline constexpr int kLiteralLengthCodes = 286;
inline constexpr int kDistanceCodes = 30;
inline constexpr int kCodeLengthCodes = 19;

// RFC 1951 3.2.5: the first length (3 ...) and distance (1 ...) of each code, and its extra bits.
inline constexpr std::array<std::uint16_t, 29> kLengthBase = {
    3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
    31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
inline constexpr std::array<std::uint8_t, 29> kLengthExtra = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
inline constexpr std::array<std::uint16_t, 30> kDistanceBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
inline constexpr std::array<std::uint8_t, 30> kDistanceExtra = {
    0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// The order in which a dynamic block lists the code length code's lengths.
inline constexpr std::array<std::uint8_t, kCodeLengthCodes> kCodeLengthOrder = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

constexpr std::array<std::uint8_t, kMaxMatch + 1> make_length_codes() {
    std::array<std::uint8_t, kMaxMatch + 1> codes{};
    for (std::size_t code = 0; code < kLengthBase.size(); ++code) {
        const std::size_t end =
            code + 1 < kLengthBase.size() ? kLengthBase[code + 1] : kMaxMatch + 1;
        for (std::size_t length = kLengthBase[code]; length < end; ++length) {
            codes[length] = static_cast<std::uint8_t>(code);
        }
    }
    return codes;
}
inline constexpr std::array<std::uint8_t, kMaxMatch + 1> kLengthCode = make_length_codes();

// Distances 1 ... 4 have a code each; above, each power of two has two codes.
inline int distance_code(std::uint32_t distance) {
    const std::uint32_t d = distance - 1;
    if (d < 4) {
        return static_cast<int>(d);
    }
    const int top = std::bit_width(d) - 1;
    return 2 * top + static_cast<int>((d >> (top - 1)) & 1);
}

}  // namespace qprof::detail::deflate_codes
