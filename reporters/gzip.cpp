#include "gzip.hpp"

#include <array>

#include "deflate.hpp"

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
// Magic, deflate, no flags, no time, no extra flags, unknown OS.
constexpr std::string_view kHeader{"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10};

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

std::string gzip_compress(std::string_view data) {
    std::string out{kHeader};
    out += deflate_raw(data);
    put_u32(out, crc32_ieee(data));
    put_u32(out, static_cast<std::uint32_t>(data.size()));  // ISIZE: the size modulo 2^32
    return out;
}

}  // namespace qprof::detail
