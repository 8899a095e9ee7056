// DEFLATE (RFC 1951) without a compression library: LZ77 over a 32 KiB window with hash
// chains, then each block -- about 128 KiB of input -- written with the Huffman codes fitted
// to it (dynamic), the fixed codes, or stored, whichever is smallest. It streams: bytes go in
// as they are made and come out compressed through a sink, so memory stays at the window and
// one block whatever the input's size. The output depends only on the bytes, never on how
// they were split between calls. Raw, or in a zlib stream (RFC 1950: two bytes of header and
// the data's Adler-32 at the end, so that a reader notices corruption); browsers read them with
// DecompressionStream('deflate-raw') and ('deflate').
//
//   std::string packed;
//   Deflater deflater{[&](std::string_view bytes) { packed += bytes; }, Deflater::zlib};
//   deflater.write(columns);
//   deflater.finish();
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "huffman.hpp"

namespace qprof::detail {

class Deflater {
  public:
    using Sink = std::function<void(std::string_view)>;
    enum Container { raw, zlib };

    explicit Deflater(Sink sink, Container container = raw);
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;

    void write(std::string_view bytes);
    // Compresses what is left as the last block and flushes; nothing may be written after.
    void finish();

    // A literal, or a match of `length` bytes `distance` back.
    struct Symbol {
        std::uint16_t length_or_literal;
        std::uint16_t distance;  // 0 for a literal
    };

  private:
    void compress_block(std::size_t input_end, bool last);
    std::size_t longest_match(std::size_t at, std::size_t end, std::uint32_t h,
                              std::size_t& distance) const;
    void insert_hash(std::size_t at, std::uint32_t h);
    void slide();
    void put_bits(std::uint32_t bits, int count);
    void drain_bytes();
    void put_symbol(const HuffmanCode& code, int symbol) {
        put_bits(code.codes[symbol], code.lengths[symbol]);
    }
    void flush_output();
    void write_block(std::size_t from, std::size_t to, bool last);
    void add_to_adler(std::string_view bytes);

    Sink sink_;
    std::string window_;              // input from `base_` on: the 32 KiB behind `done_`, and more
    std::uint64_t base_ = 0;          // the absolute position of window_[0]
    std::uint64_t done_ = 0;          // input before this is compressed
    std::vector<std::int64_t> head_;  // per hash: the latest position, or -1
    std::vector<std::int64_t> prev_;  // per position modulo the window: the one before it
    std::vector<Symbol> symbols_;
    std::string out_;
    std::uint64_t bit_buffer_ = 0;
    int bit_count_ = 0;
    bool finished_ = false;
    Container container_;
    std::uint32_t adler_a_ = 1;  // the Adler-32 of the input, for the zlib container
    std::uint32_t adler_b_ = 0;
};

// The raw DEFLATE data of `data`, in one call.
std::string deflate_raw(std::string_view data);

}  // namespace qprof::detail
