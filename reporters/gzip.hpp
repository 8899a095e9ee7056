// gzip without a compression library: one gzip member (RFC 1952) around DEFLATE data
// (RFC 1951) compressed by deflate.cpp; 18 bytes on top of it.
//
//   std::string file = gzip_compress(profile_bytes);   // what profile_queries.pb.gz holds
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace qprof::detail {

// The CRC-32 of gzip's trailer (IEEE 802.3, reflected, as zlib's crc32).
std::uint32_t crc32_ieee(std::string_view data);

std::string gzip_compress(std::string_view data);

}  // namespace qprof::detail
