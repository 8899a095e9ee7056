// DEFLATE (RFC 1951) without a compression library: greedy LZ77 over a 32 KiB window, each
// position looked up once in a table of the latest position of each 4-byte hash, then each
// block -- about 128 KiB of input -- written with the Huffman codes fitted to it (dynamic),
// the fixed codes, or stored, whichever is smallest (deflate_block.hpp). It streams: bytes go in
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

#include "deflate_block.hpp"

namespace qprof::detail {

// How many bytes `a` and `b` have in common at their start, at most `limit`, a word at a time:
// an LZ77 match's length, and what a key's text in the HTML payload takes from another's.
std::size_t common_prefix(const unsigned char* a, const unsigned char* b, std::size_t limit);

class Deflater {
  public:
    using Sink = std::function<void(std::string_view)>;
    enum Container { raw, zlib };
    // compress: LZ77 and Huffman codes, as above. store: the bytes as they are, in stored blocks
    // (still DEFLATE, read by every inflater): for data whose size matters less than the few
    // nanoseconds a byte that compressing it costs.
    enum class Method { compress, store };

    explicit Deflater(Sink sink, Container container = raw, Method method = Method::compress);
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;

    void write(std::string_view bytes);
    // Compresses what is left as the last block and flushes; nothing may be written after.
    void finish();

  private:
    void compress_block(std::size_t input_end, bool last);
    void finish_block(std::uint64_t done);
    void slide();
    void flush_output();
    void add_to_adler(std::string_view bytes);

    Sink sink_;
    std::string window_;      // input from `base_` on: the 32 KiB behind `done_`, and more
    std::uint64_t base_ = 0;  // the absolute position of window_[0]
    std::uint64_t done_ = 0;  // input before this is compressed
    // Per hash of 4 bytes, the latest position that had it, modulo 2^32 (0 at first: a
    // candidate is checked against the bytes, so a wrong one only costs a comparison).
    std::vector<std::uint32_t> head_;
    std::vector<deflate_block::Symbol> symbols_;  // the block's, kBlockInput at most
    deflate_block::SymbolCounts counts_;
    deflate_block::Output out_;
    deflate_block::PendingBits pending_;
    bool finished_ = false;
    Container container_;
    Method method_;
    std::uint32_t adler_a_ = 1;  // the Adler-32 of the input, for the zlib container
    std::uint32_t adler_b_ = 0;
};

// The raw DEFLATE data of `data`, in one call.
std::string deflate_raw(std::string_view data);

}  // namespace qprof::detail
