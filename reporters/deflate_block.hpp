// One DEFLATE block (RFC 1951 3.2.3-3.2.7) from the symbols LZ77 found: written with the
// Huffman codes fitted to it (dynamic), the fixed codes, or stored, whichever is smallest; or
// input stored as it is, without looking for anything to compress.
// Bits go out least significant first, eight bytes at a time. Used by deflate.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "deflate_codes.hpp"

namespace qprof::detail::deflate_block {

// A literal, or a match of `length` bytes `distance` back.
struct Symbol {
    std::uint16_t length_or_literal;
    std::uint16_t distance;  // 0 for a literal
};

// How often each literal/length and distance code occurs in a block's symbols.
struct SymbolCounts {
    std::array<std::uint32_t, deflate_codes::kLiteralLengthCodes> literal{};
    std::array<std::uint32_t, deflate_codes::kDistanceCodes> distance{};
};

// Bits into memory that has room for 8 bytes more than is written. At most 56 bits may be put
// between two flushes.
class BitWriter {
  public:
    BitWriter(char* out, std::uint64_t bits, int count) : out_(out), bits_(bits), count_(count) {}

    void put(std::uint64_t bits, int count) {
        bits_ |= bits << count_;
        count_ += count;
    }
    // Writes the whole bytes held; fewer than 8 bits stay.
    void flush() {
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(out_, &bits_, 8);
        } else {
            for (int i = 0; i < 8; ++i) {
                out_[i] = static_cast<char>(bits_ >> (8 * i));
            }
        }
        const int bytes = count_ >> 3;
        out_ += bytes;
        bits_ >>= 8 * bytes;
        count_ &= 7;
    }
    // Pads to a byte boundary with zero bits and writes them.
    void align() {
        count_ = (count_ + 7) & ~7;
        flush();
    }
    void put_bytes(std::string_view bytes) {
        std::memcpy(out_, bytes.data(), bytes.size());
        out_ += bytes.size();
    }
    char* end() const { return out_; }
    std::uint64_t bits() const { return bits_; }
    int count() const { return count_; }

  private:
    char* out_;
    std::uint64_t bits_;
    int count_;
};

// Compressed bytes on their way to the sink: room is made without zeroing it, since all of
// it that counts is written.
class Output {
  public:
    // Room for `more` bytes after the end; returns where it starts.
    char* room(std::size_t more) {
        if (capacity_ - size_ < more) {
            const std::size_t capacity = std::max(2 * capacity_, size_ + more);
            auto grown = std::make_unique_for_overwrite<char[]>(capacity);
            if (size_ > 0) {
                std::memcpy(grown.get(), data_.get(), size_);
            }
            data_ = std::move(grown);
            capacity_ = capacity;
        }
        return data_.get() + size_;
    }
    // The bytes up to `end`, in the room last made, are written.
    void written_to(const char* end) { size_ = static_cast<std::size_t>(end - data_.get()); }
    void append(std::string_view bytes) {
        std::memcpy(room(bytes.size()), bytes.data(), bytes.size());
        size_ += bytes.size();
    }
    std::string_view view() const { return {data_.get(), size_}; }
    void clear() { size_ = 0; }

  private:
    std::unique_ptr<char[]> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

// The bits not yet written as a whole byte, between two blocks.
struct PendingBits {
    std::uint64_t bits = 0;
    int count = 0;  // fewer than 8
};

// Appends the block of `symbols` (counted in `counts`), which stand for `input`, to `out`.
void write_block(Output& out, PendingBits& pending, std::span<const Symbol> symbols,
                 const SymbolCounts& counts, std::string_view input, bool last);

// Appends `input` as it is (stored blocks, no code), after the pending bits.
void write_stored(Output& out, PendingBits& pending, std::string_view input, bool last);

// Pads the pending bits to a byte and appends it.
void drain(Output& out, PendingBits& pending);

}  // namespace qprof::detail::deflate_block
