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
                 hex_bytes(bytes_.first(magic_seen)) + ")");
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
