#include "raw_cursor.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace qprof::detail::raw {

namespace {

template <typename T>
T get(const unsigned char* pos) {
    T value;
    std::memcpy(&value, pos, sizeof(T));
    return value;
}

std::string hex_bytes(std::span<const unsigned char> bytes) {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string text;
    for (const unsigned char byte : bytes) {
        text += text.empty() ? "" : " ";
        text += kDigits[byte >> 4];
        text += kDigits[byte & 15];
    }
    return text;
}

std::string describe(const Block& block) {
    return "block #" + std::to_string(block.index) + " (" + std::string{block_name(block.type)} +
           ")";
}

[[noreturn]] void fail(FormatError::Kind kind, std::uint64_t offset, const std::string& what) {
    throw FormatError(kind, offset, what);
}

}  // namespace

FileHeader BlockCursor::read_file_header() {
    using Kind = FormatError::Kind;
    const auto* bytes = bytes_.data();
    if (bytes_.empty()) {
        fail(Kind::foreign, 0, "the file is empty (expected a qprof stream)");
    }
    const std::size_t magic_seen = std::min(bytes_.size(), kMagic.size());
    if (std::memcmp(bytes, kMagic.data(), magic_seen) != 0) {
        fail(Kind::foreign, 0,
             "not a qprof stream (expected magic " + hex_bytes(kMagic) + ", found " +
                 hex_bytes(bytes_.first(magic_seen)) +
                 "); qprof reads the stream a run writes with -Z profile-queries=raw "
                 "(profile_queries.qprof), not its other reports");
    }
    if (bytes_.size() < kFileHeaderBytes) {
        fail(Kind::truncated, bytes_.size(),
             "the stream ends inside its 32-byte file header (" + std::to_string(bytes_.size()) +
                 " bytes present)");
    }
    if (get<std::uint32_t>(bytes + 8) != kByteOrderMark) {
        fail(Kind::foreign, 8,
             "the byte-order mark is not 0D 0C 0B 0A: not a little-endian "
             "qprof stream");
    }
    FileHeader header{get<std::uint16_t>(bytes + 12), get<std::uint16_t>(bytes + 14),
                      get<std::uint32_t>(bytes + 20)};
    const std::uint32_t stored = get<std::uint32_t>(bytes + 28);
    const std::uint32_t computed = crc32c(bytes, 28);
    if (stored != computed) {
        fail(Kind::corrupt, 28,
             "file header checksum mismatch (expected " + std::to_string(stored) + ", computed " +
                 std::to_string(computed) + ")");
    }
    if (header.major != kMajor) {
        fail(Kind::foreign, 12,
             "format " + std::to_string(header.major) + "." + std::to_string(header.minor) +
                 " is not one this qprof reads (it reads " + std::to_string(kMajor) + ".x)");
    }
    const std::uint32_t header_bytes = get<std::uint32_t>(bytes + 16);
    if (header_bytes < kFileHeaderBytes || header_bytes % 8 != 0 || header_bytes > bytes_.size()) {
        fail(Kind::corrupt, 16,
             "header size " + std::to_string(header_bytes) +
                 " is not a multiple of 8 between 32 and the file size");
    }
    if ((header.flags & 0xFFFF & ~(kFlagKeys | kFlagMerged)) != 0) {
        fail(Kind::corrupt, 20, "unknown required flags " + std::to_string(header.flags));
    }
    offset_ = header_bytes;
    return header;
}

std::optional<Block> BlockCursor::next() {
    using Kind = FormatError::Kind;
    const std::uint64_t left = bytes_.size() - offset_;
    if (left == 0) {
        return std::nullopt;
    }
    const auto* head = bytes_.data() + offset_;
    Block block{.type = 0, .seq = 0, .offset = offset_, .index = index_, .payload = {}};
    if (left < kBlockHeaderBytes) {
        fail(Kind::truncated, offset_,
             "the stream ends inside the header of block #" + std::to_string(index_) + " (" +
                 std::to_string(left) + " of 16 bytes present)");
    }
    block.type = get<std::uint16_t>(head);
    const std::uint32_t length = get<std::uint32_t>(head + 4);
    block.seq = get<std::uint32_t>(head + 8);
    const std::uint32_t stored = get<std::uint32_t>(head + 12);
    if (length % 8 != 0 || length > kMaxPayloadBytes) {
        fail(Kind::corrupt, offset_ + 4,
             describe(block) + " declares " + std::to_string(length) +
                 " payload bytes (expected a multiple of 8, at most 16 MiB)");
    }
    if (left - kBlockHeaderBytes < length) {
        fail(Kind::truncated, bytes_.size(),
             "the stream ends inside " + describe(block) + ": " + std::to_string(length) +
                 " payload bytes declared, " + std::to_string(left - kBlockHeaderBytes) +
                 " present");
    }
    block.payload = bytes_.subspan(offset_ + kBlockHeaderBytes, length);
    std::uint32_t computed = crc32c(head, 12);
    computed = crc32c(block.payload.data(), length, computed);
    if (computed != stored) {
        fail(Kind::corrupt, offset_ + 12,
             describe(block) + " checksum mismatch (expected " + std::to_string(stored) +
                 ", computed " + std::to_string(computed) + ")");
    }
    offset_ += kBlockHeaderBytes + length;
    ++index_;
    return block;
}

PayloadReader::PayloadReader(const Block& block)
    : payload_(block.payload),
      block_offset_(block.offset + kBlockHeaderBytes),
      block_(describe(block)) {}

const unsigned char* PayloadReader::take(std::size_t bytes, std::string_view field) {
    if (remaining() < bytes) {
        fail(block_ + " is too short: " + std::string{field} + " needs " + std::to_string(bytes) +
             " bytes, " + std::to_string(remaining()) + " left");
    }
    const unsigned char* pos = payload_.data() + position_;
    position_ += bytes;
    return pos;
}

std::uint8_t PayloadReader::u8() { return *take(1, "a byte"); }
std::uint32_t PayloadReader::u32() { return get<std::uint32_t>(take(4, "a 32-bit field")); }
std::uint64_t PayloadReader::u64() { return get<std::uint64_t>(take(8, "a 64-bit field")); }
double PayloadReader::f64() { return std::bit_cast<double>(u64()); }

std::string_view PayloadReader::str() {
    const std::uint32_t length = u32();
    const auto* bytes = take(length, "a string");
    return {reinterpret_cast<const char*>(bytes), length};
}

void PayloadReader::skip_padding() { take((8 - position_ % 8) % 8, "padding"); }

void PayloadReader::words(std::uint64_t* out, std::size_t count) {
    if (count > remaining() / 8) {
        fail(block_ + " is too short: " + std::to_string(count) + " words declared, " +
             std::to_string(remaining() / 8) + " present");
    }
    std::memcpy(out, take(count * 8, "words"), count * 8);
}

void PayloadReader::fail(const std::string& what, std::uint64_t at) const { corrupt(at, what); }

void corrupt(std::uint64_t offset, const std::string& what) {
    throw FormatError(FormatError::Kind::corrupt, offset, what);
}

}  // namespace qprof::detail::raw
