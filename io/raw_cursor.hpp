// Reading the raw stream's framing back: the file header, the blocks one by one with their
// checksums, and a block's payload field by field. The writing half and the constants are
// src/raw_format.hpp; each block's payload is decoded by its struct (src/raw_session.hpp,
// src/raw_events.hpp), whose decode functions are the io layer's too.
//
//   raw::BlockCursor cursor{bytes};          // throws raw::FormatError at the damage
//   cursor.read_file_header();
//   while (auto found = cursor.next()) { raw::PayloadReader payload{*found}; ... }
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "raw_format.hpp"

namespace qprof::detail::raw {

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
