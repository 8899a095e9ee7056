// gzip without a compression library: one gzip member (RFC 1952) whose deflate data
// (RFC 1951) is stored blocks, the bytes as they are, up to 65,535 of them a block. Every
// gzip reader accepts it; it weighs its data plus 5 bytes a block and 18 for the member.
//
//   std::string file = gzip_stored(profile_bytes);   // what profile_queries.pb.gz holds
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace qprof::detail {

// The CRC-32 of gzip's trailer (IEEE 802.3, reflected, as zlib's crc32).
std::uint32_t crc32_ieee(std::string_view data);

std::string gzip_stored(std::string_view data);

}  // namespace qprof::detail
