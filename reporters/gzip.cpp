#include "gzip.hpp"

#include <algorithm>
#include <array>

namespace qprof::detail {

namespace {

constexpr std::array<std::uint32_t, 256> make_crc_table() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t n = 0; n < 256; ++n) {
        std::uint32_t c = n;
        for (int bit = 0; bit < 8; ++bit) {
            c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        table[n] = c;
    }
    return table;
}

constexpr std::array<std::uint32_t, 256> kCrcTable = make_crc_table();
constexpr std::size_t kStoredBlockBytes = 65'535;

void put_u16(std::string& out, std::uint32_t value) {
    out += static_cast<char>(value & 0xff);
    out += static_cast<char>((value >> 8) & 0xff);
}

void put_u32(std::string& out, std::uint32_t value) {
    put_u16(out, value & 0xffff);
    put_u16(out, value >> 16);
}

}  // namespace

std::uint32_t crc32_ieee(std::string_view data) {
    std::uint32_t crc = 0xffffffffu;
    for (const char byte : data) {
        crc = kCrcTable[(crc ^ static_cast<unsigned char>(byte)) & 0xff] ^ (crc >> 8);
    }
    return crc ^ 0xffffffffu;
}

std::string gzip_stored(std::string_view data) {
    std::string out;
    out.reserve(data.size() + data.size() / kStoredBlockBytes * 5 + 32);
    // Magic, deflate, no flags, no time, no extra flags, unknown OS.
    out.append("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
    std::size_t at = 0;
    do {
        const std::size_t size = std::min(kStoredBlockBytes, data.size() - at);
        const bool last = at + size == data.size();
        out += static_cast<char>(last ? 1 : 0);  // BFINAL, BTYPE 00: stored
        put_u16(out, static_cast<std::uint32_t>(size));
        put_u16(out, static_cast<std::uint32_t>(~size & 0xffff));
        out.append(data.substr(at, size));
        at += size;
    } while (at < data.size());
    put_u32(out, crc32_ieee(data));
    put_u32(out, static_cast<std::uint32_t>(data.size()));  // ISIZE: the size modulo 2^32
    return out;
}

}  // namespace qprof::detail
