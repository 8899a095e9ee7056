// A string key's record when its text is its chars: the chars themselves, copied into the
// record on the program's thread and made a text by the collector (key_record.hpp says which
// keys; docs/raw-format.md, the words). ShortString for at most 127 chars, in a key type of 4,
// 8 or 16 payload words; CountedChars for 128 to 4,096, a count and the chars.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace qprof::detail {

// A string key of at most 127 chars in its record: the chars, zero-padded, then their count,
// so that equal strings leave equal words; 32 bytes for at most 31 chars, 64 for at most 63,
// 128 for more. The program's thread neither hashes nor keeps such a key; the collector makes
// its text, once per distinct key (src/key_texts.cpp). Longer strings are CountedChars.
template <std::size_t Bytes>
struct ShortString {
    char chars[Bytes - 1];
    unsigned char size;
};
static_assert(sizeof(ShortString<32>) == 32 && std::is_trivially_copyable_v<ShortString<32>>);
static_assert(sizeof(ShortString<64>) == 64 && std::is_trivially_copyable_v<ShortString<64>>);
static_assert(sizeof(ShortString<128>) == 128 && std::is_trivially_copyable_v<ShortString<128>>);

// The longest string key kept as its chars.
inline constexpr std::size_t kMaxShortStringChars = sizeof(ShortString<128>::chars);

// The bytes of the ShortString that holds `size` chars, at most kMaxShortStringChars.
constexpr std::uint32_t short_string_bytes(std::size_t size) {
    return size < 32 ? 32 : size < 64 ? 64 : 128;
}

// Copies N bytes (a multiple of 16) in 16-byte pieces, which the compiler keeps in registers.
template <std::size_t N>
void copy_pieces(unsigned char* out, const char* from) {
    for (std::size_t i = 0; i < N; i += 16) {
        std::uint64_t piece[2];
        std::memcpy(piece, from + i, sizeof piece);
        std::memcpy(out + i, piece, sizeof piece);
    }
}

// Writes the ShortString<Bytes> of `size` chars (at most Bytes - 1) at `out`, straight into the
// record. Whatever the chars leave is zeroed first, by fixed-size stores of half the bytes (a
// memset of all 128 became `rep stos`, 17 ns); then come two fixed-size copies that may
// overlap, as a call to memcpy for a few bytes costs more than the copy. Built on the stack, its
// bytes were read back in wider loads than they were written with, which the processor cannot
// forward from its stores.
template <std::size_t Bytes>
void write_short_string(unsigned char* out, const char* chars, std::size_t size) {
    constexpr std::size_t kHalf = Bytes / 2;
    std::memset(out + kHalf, 0, kHalf);
    if (size < kHalf) {
        std::memset(out, 0, kHalf);
    }
    out[offsetof(ShortString<Bytes>, size)] = static_cast<unsigned char>(size);  // after the chars
    const auto copy = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
        if constexpr (N >= 16) {  // the first and the last N chars
            copy_pieces<N>(out, chars);
            copy_pieces<N>(out + size - N, chars + size - N);
        } else {
            using Block = std::conditional_t<N == 8, std::uint64_t, std::uint32_t>;
            Block block;
            std::memcpy(&block, chars, N);
            std::memcpy(out, &block, N);
            std::memcpy(&block, chars + size - N, N);
            std::memcpy(out + size - N, &block, N);
        }
    };
    if constexpr (Bytes > 64) {
        if (size >= 64) {
            copy(std::integral_constant<std::size_t, 64>{});
            return;
        }
    }
    if constexpr (Bytes > 32) {
        if (size >= 32) {
            copy(std::integral_constant<std::size_t, 32>{});
            return;
        }
    }
    if (size >= 16) {
        copy(std::integral_constant<std::size_t, 16>{});
    } else if (size >= 8) {
        copy(std::integral_constant<std::size_t, 8>{});
    } else if (size >= 4) {
        copy(std::integral_constant<std::size_t, 4>{});
    } else {
        for (std::size_t i = 0; i < size; ++i) {
            out[i] = static_cast<unsigned char>(chars[i]);
        }
    }
}

// The text of a ShortString<Bytes>'s bytes: its chars, as format_key makes a string's text.
template <std::size_t Bytes>
std::string format_short_string(const void* bytes) {
    ShortString<Bytes> key;
    std::memcpy(&key, bytes, sizeof key);
    return {key.chars, std::min<std::size_t>(key.size, sizeof key.chars)};
}

// A string key of 128 to kMaxCountedChars chars in its record: a word with the count of chars,
// then the chars, zero-padded to a whole word. The record's length is in it, not in its type,
// so no size is wasted and none is a limit but this one; a longer string is interned. The type
// is only a tag that names the key type.
struct CountedChars {};
inline constexpr std::size_t kMaxCountedChars = 4096;

// The payload words of a CountedChars record of `count` chars: the count, then the chars.
constexpr std::uint64_t counted_chars_words(std::uint64_t count) { return 1 + (count + 7) / 8; }

// Writes a CountedChars payload of `size` chars at `out`.
inline void write_counted_chars(std::uint64_t* out, const char* chars, std::size_t size) {
    out[0] = size;
    out[counted_chars_words(size) - 1] = 0;  // the padding after the last char
    std::memcpy(out + 1, chars, size);
}

// The chars of a CountedChars payload, as write_counted_chars left them.
inline std::string_view counted_chars(const std::uint64_t* payload) {
    return {reinterpret_cast<const char*>(payload + 1), static_cast<std::size_t>(payload[0])};
}

// The payload words of a string key of `size` chars (at most kMaxCountedChars) kept as its
// chars: 4, 8 or 16 for a ShortString, more for CountedChars.
constexpr std::uint32_t chars_payload_words(std::size_t size) {
    return size <= kMaxShortStringChars ? short_string_bytes(size) / 8
                                        : static_cast<std::uint32_t>(counted_chars_words(size));
}

template <typename Key>
inline constexpr bool kIsShortString = false;
template <std::size_t Bytes>
inline constexpr bool kIsShortString<ShortString<Bytes>> = true;

}  // namespace qprof::detail
