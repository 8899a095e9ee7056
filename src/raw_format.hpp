// The raw event stream, profile_queries.qprof: constants, checksums, and the two halves that
// every writer and reader of it share. The layout is documented in docs/raw-format.md.
//
//   std::string bytes = raw::file_header(raw::kFlagKeys);
//   raw::BlockEncoder block{bytes, raw::BlockType::thread, seq++};
//   block.u32(index);
//   block.u32(name_id);
//   block.finish();
//
//   raw::BlockCursor cursor{bytes};          // throws raw::FormatError at the damage
//   cursor.read_file_header();
//   while (auto found = cursor.next()) { raw::PayloadReader payload{*found}; ... }
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace qprof::detail::raw {

inline constexpr std::array<unsigned char, 8> kMagic{0x89, 'q', 'p', 'r', 'o', 'f', '\r', '\n'};
inline constexpr std::uint32_t kByteOrderMark = 0x0A0B0C0D;
inline constexpr std::uint16_t kMajor = 1;
inline constexpr std::uint16_t kMinor = 3;
inline constexpr std::size_t kFileHeaderBytes = 32;
inline constexpr std::size_t kBlockHeaderBytes = 16;
inline constexpr std::uint32_t kMaxPayloadBytes = 16u << 20;

// File header flags.
inline constexpr std::uint32_t kFlagKeys = 1;    // key records and their texts are present
inline constexpr std::uint32_t kFlagMerged = 2;  // several runs, one segment each

// Bounds that keep a reader's memory and arithmetic safe on hostile input; live data never
// comes near them.
inline constexpr std::uint32_t kMaxThreads = 1u << 16;
inline constexpr std::uint32_t kMaxDepth = 1u << 20;
inline constexpr std::uint64_t kMaxTickDistance = std::uint64_t{1} << 52;
// The durations of a file's nodes add up to at most this many nanoseconds (36 years), so that
// no sum a report makes of them can overflow.
inline constexpr double kMaxSummedNs = 0x1p60;

enum class BlockType : std::uint16_t {
    session = 1,  // first block of each run
    // 2 is reserved (a string table, dropped before 1.0: strings are written in place)
    sites = 3,
    thread = 4,
    records = 5,
    key_types = 6,
    key_texts = 7,
    clock = 8,          // a calibration sample, written about once a second
    end = 9,            // last block of each run
    process = 0x100,    // optional, from 1.1: the process that ran (src/raw_process.hpp)
    selection = 0x101,  // optional, from 1.2: events left out (src/raw_selection.hpp)
    classes = 0x104,    // optional, from 1.3: the sites' colour classes (src/raw_classes.hpp)
};
// Types from this one on are optional: a reader skips those it does not know.
inline constexpr std::uint16_t kFirstOptionalType = 0x100;

std::string_view block_name(std::uint16_t type);

// CRC32C (Castagnoli), with the SSE 4.2 instruction when the CPU has it.
std::uint32_t crc32c(const void* data, std::size_t bytes, std::uint32_t crc = 0);
std::uint32_t crc32c_portable(const void* data, std::size_t bytes, std::uint32_t crc = 0);

// The 32 bytes every stream starts with.
std::string file_header(std::uint32_t flags);

// Appends one block to `out`: its header is reserved at construction and filled by finish(),
// which also pads the payload to a multiple of 8 bytes.
class BlockEncoder {
  public:
    BlockEncoder(std::string& out, BlockType type, std::uint32_t seq);
    void u8(std::uint8_t value);
    void u32(std::uint32_t value);
    void u64(std::uint64_t value);
    void f64(double value);
    void str(std::string_view text);  // u32 length, then the bytes
    void words(const std::uint64_t* words, std::size_t count);
    // A u32 written later, once known (a list's length): returns its place for set_u32.
    std::size_t later_u32();
    void set_u32(std::size_t place, std::uint32_t value);
    void pad_to_8();
    // The payload bytes written so far.
    std::size_t payload_bytes() const;
    void finish();

  private:
    std::string& out_;
    std::size_t start_;
    std::uint16_t type_;
    std::uint32_t seq_;
};

// Damage found while reading: where (byte offset in the file) and what was expected.
class FormatError : public std::runtime_error {
  public:
    enum class Kind { foreign, truncated, corrupt };
    FormatError(Kind kind, std::uint64_t offset, const std::string& what)
        : std::runtime_error(what), kind_(kind), offset_(offset) {}
    Kind kind() const { return kind_; }
    std::uint64_t offset() const { return offset_; }

  private:
    Kind kind_;
    std::uint64_t offset_;
};

// Throws FormatError: corruption found at `offset`.
[[noreturn]] void corrupt(std::uint64_t offset, const std::string& what);

struct FileHeader {
    std::uint16_t major = 0;
    std::uint16_t minor = 0;
    std::uint32_t flags = 0;
};

struct Block {
    std::uint16_t type = 0;
    std::uint32_t seq = 0;
    std::uint64_t offset = 0;  // of the block header in the file
    std::uint32_t index = 0;   // blocks before it in the file
    std::span<const unsigned char> payload;
};

// Walks a stream block by block, checking framing and checksums.
class BlockCursor {
  public:
    explicit BlockCursor(std::span<const unsigned char> bytes) : bytes_(bytes) {}
    FileHeader read_file_header();
    // The next block, or nothing at the end of the bytes.
    std::optional<Block> next();
    std::uint64_t offset() const { return offset_; }

  private:
    std::span<const unsigned char> bytes_;
    std::uint64_t offset_ = 0;
    std::uint32_t index_ = 0;
};

// Reads a block's payload field by field; a field past the end is corruption, reported at
// its offset.
class PayloadReader {
  public:
    explicit PayloadReader(const Block& block);
    std::uint8_t u8();
    std::uint32_t u32();
    std::uint64_t u64();
    double f64();
    std::string_view str();
    void skip_padding();  // to the next multiple of 8 bytes of payload
    // `count` words, copied into `out` (the payload need not be aligned).
    void words(std::uint64_t* out, std::size_t count);
    std::uint64_t offset() const { return block_offset_ + position_; }
    std::size_t remaining() const { return payload_.size() - position_; }
    [[noreturn]] void fail(const std::string& what, std::uint64_t at) const;
    [[noreturn]] void fail(const std::string& what) const { fail(what, offset()); }

  private:
    const unsigned char* take(std::size_t bytes, std::string_view field);

    std::span<const unsigned char> payload_;
    std::uint64_t block_offset_;  // of the payload's first byte
    std::size_t position_ = 0;
    std::string block_;  // "block #N (NAME)", for messages
};

}  // namespace qprof::detail::raw
