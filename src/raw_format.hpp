// The raw event stream, profile_queries.qprof: constants, checksums, block types, and the
// writing half of its framing. The layout is documented in docs/raw-format.md; the reading half
// (BlockCursor, PayloadReader), which only the qprof tool links, is io/raw_cursor.hpp.
//
//   std::string bytes = raw::file_header(raw::kFlagKeys);
//   raw::BlockEncoder block{bytes, raw::BlockType::thread, seq++};
//   block.u32(index);
//   block.u32(name_id);
//   block.finish();
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace qprof::detail::raw {

inline constexpr std::array<unsigned char, 8> kMagic{0x89, 'q', 'p', 'r', 'o', 'f', '\r', '\n'};
inline constexpr std::uint32_t kByteOrderMark = 0x0A0B0C0D;
inline constexpr std::uint16_t kMajor = 1;
inline constexpr std::uint16_t kMinor = 5;
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

// The reading half of the framing (io/raw_cursor.hpp). Each block's struct declares its decode
// beside its encode, one definition of the block; the decode functions are defined in io/,
// which only the qprof tool links, so a profiled program carries the encoding alone.
class PayloadReader;

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

}  // namespace qprof::detail::raw
