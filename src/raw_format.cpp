#include "raw_format.hpp"

#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace qprof::detail::raw {

static_assert(std::endian::native == std::endian::little,
              "the raw stream is little-endian and written by copying words");

namespace {

constexpr std::uint32_t kCrcPolynomial = 0x82F63B78;  // CRC32C, reflected

constexpr std::array<std::uint32_t, 256> make_crc_table() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t byte = 0; byte < 256; ++byte) {
        std::uint32_t crc = byte;
        for (int bit = 0; bit < 8; ++bit) {
            crc = (crc >> 1) ^ ((crc & 1) != 0 ? kCrcPolynomial : 0);
        }
        table[byte] = crc;
    }
    return table;
}
constexpr std::array<std::uint32_t, 256> kCrcTable = make_crc_table();

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(const void* data, std::size_t bytes,
                                                             std::uint32_t crc) {
    const auto* pos = static_cast<const unsigned char*>(data);
    std::uint64_t state = ~crc;
    for (; bytes >= 8; bytes -= 8, pos += 8) {
        std::uint64_t word;
        std::memcpy(&word, pos, 8);
        state = _mm_crc32_u64(state, word);
    }
    auto state32 = static_cast<std::uint32_t>(state);
    for (; bytes > 0; --bytes, ++pos) {
        state32 = _mm_crc32_u8(state32, *pos);
    }
    return ~state32;
}
#endif

template <typename T>
void put(std::string& out, T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

}  // namespace

std::string_view block_name(std::uint16_t type) {
    static constexpr std::string_view kNames[] = {"unknown", "SESSION", "unknown",   "SITES",
                                                  "THREAD",  "RECORDS", "KEY_TYPES", "KEY_TEXTS",
                                                  "CLOCK",   "END"};
    if (type == static_cast<std::uint16_t>(BlockType::process)) {
        return "PROCESS";
    }
    if (type == static_cast<std::uint16_t>(BlockType::selection)) {
        return "SELECTION";
    }
    if (type == static_cast<std::uint16_t>(BlockType::classes)) {
        return "CLASSES";
    }
    return type < std::size(kNames) ? kNames[type] : kNames[0];
}

std::uint32_t crc32c_portable(const void* data, std::size_t bytes, std::uint32_t crc) {
    const auto* pos = static_cast<const unsigned char*>(data);
    crc = ~crc;
    for (; bytes > 0; --bytes, ++pos) {
        crc = (crc >> 8) ^ kCrcTable[(crc ^ *pos) & 0xFF];
    }
    return ~crc;
}

std::uint32_t crc32c(const void* data, std::size_t bytes, std::uint32_t crc) {
#if defined(__x86_64__)
    static const bool hardware = __builtin_cpu_supports("sse4.2");
    if (hardware) {
        return crc32c_sse42(data, bytes, crc);
    }
#endif
    return crc32c_portable(data, bytes, crc);
}

std::string file_header(std::uint32_t flags) {
    std::string out(reinterpret_cast<const char*>(kMagic.data()), kMagic.size());
    put(out, kByteOrderMark);
    put(out, kMajor);
    put(out, kMinor);
    put(out, static_cast<std::uint32_t>(kFileHeaderBytes));
    put(out, flags);
    put(out, std::uint32_t{0});
    put(out, crc32c(out.data(), out.size()));
    return out;
}

BlockEncoder::BlockEncoder(std::string& out, BlockType type, std::uint32_t seq)
    : out_(out), start_(out.size()), type_(static_cast<std::uint16_t>(type)), seq_(seq) {
    out_.append(kBlockHeaderBytes, '\0');
}

void BlockEncoder::u8(std::uint8_t value) { put(out_, value); }
void BlockEncoder::u32(std::uint32_t value) { put(out_, value); }
void BlockEncoder::u64(std::uint64_t value) { put(out_, value); }
void BlockEncoder::f64(double value) { put(out_, std::bit_cast<std::uint64_t>(value)); }

void BlockEncoder::str(std::string_view text) {
    u32(static_cast<std::uint32_t>(text.size()));
    out_.append(text);
}

void BlockEncoder::words(const std::uint64_t* words, std::size_t count) {
    out_.append(reinterpret_cast<const char*>(words), count * sizeof(std::uint64_t));
}

std::size_t BlockEncoder::later_u32() {
    const std::size_t place = out_.size();
    u32(0);
    return place;
}

void BlockEncoder::set_u32(std::size_t place, std::uint32_t value) {
    std::memcpy(out_.data() + place, &value, sizeof value);
}

void BlockEncoder::pad_to_8() { out_.append((8 - payload_bytes() % 8) % 8, '\0'); }

std::size_t BlockEncoder::payload_bytes() const { return out_.size() - start_ - kBlockHeaderBytes; }

void BlockEncoder::finish() {
    pad_to_8();
    std::string header;
    put(header, type_);
    put(header, std::uint16_t{0});
    put(header, static_cast<std::uint32_t>(payload_bytes()));
    put(header, seq_);
    std::uint32_t crc = crc32c(header.data(), header.size());
    crc = crc32c(out_.data() + start_ + kBlockHeaderBytes, payload_bytes(), crc);
    put(header, crc);
    out_.replace(start_, kBlockHeaderBytes, header);
}

}  // namespace qprof::detail::raw
