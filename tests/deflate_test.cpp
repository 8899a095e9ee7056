// qprof's DEFLATE (reporters/deflate.cpp, deflate_block.cpp) read back by Python's zlib: random
// bytes, columns shaped like the HTML payload's, runs and matches at the window's edge, each
// handed over whole and in pieces (which must give the same bytes). The compressed sizes are
// bounded, so that an encoder that stopped finding matches fails too; stored, the bytes are
// all there and nothing more than the blocks' heads.
#include "deflate.hpp"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.hpp"

namespace {

using qprof::detail::Deflater;

std::string compress(std::string_view data, std::size_t piece,
                     Deflater::Method method = Deflater::Method::compress) {
    std::string packed;
    Deflater deflater{[&](std::string_view bytes) { packed += bytes; }, Deflater::zlib, method};
    for (std::size_t at = 0; at < data.size(); at += piece) {
        deflater.write(data.substr(at, piece));
    }
    deflater.finish();
    return packed;
}

void append_varint(std::string& out, std::uint64_t value) {
    for (; value >= 0x80; value >>= 7) {
        out += static_cast<char>((value & 0x7f) | 0x80);
    }
    out += static_cast<char>(value);
}

// A tag, a size, a duration and a gap column of `nodes` nodes, as html_columns.cpp writes
// them: repeated call patterns with noise, mostly leaves, log-spread durations, small gaps.
std::vector<std::string> column_list(std::size_t nodes, std::uint64_t seed) {
    std::mt19937_64 random{seed};
    std::string tags;
    std::string sizes;
    std::string durations;
    std::string gaps;
    for (std::size_t n = 0; n < nodes; ++n) {
        const bool hit = random() % 4 != 0;
        const std::uint64_t provider = random() % 8 == 0 ? random() % 300 : n % 7;
        append_varint(tags, provider << 5 | (hit ? 1 : 0));
        append_varint(sizes, hit || random() % 4 != 0 ? 1 : 2 + random() % 20);
        append_varint(durations, hit ? 0 : 100 + random() % (std::uint64_t{1} << (random() % 24)));
        append_varint(gaps, hit ? 0 : random() % 400);
    }
    return {tags, sizes, durations, gaps};
}

std::string payload_columns(std::size_t nodes, std::uint64_t seed) {
    std::string columns;
    for (const std::string& column : column_list(nodes, seed)) {
        columns += column;
    }
    return columns;
}

// The bytes that `column` would take coded byte by byte with the best code for their
// frequencies, which DEFLATE without matches cannot beat.
double entropy_bytes(std::string_view column) {
    std::array<double, 256> count{};
    for (const char byte : column) {
        ++count[static_cast<unsigned char>(byte)];
    }
    double bits = 0;
    for (const double c : count) {
        bits += c > 0 ? -c * std::log2(c / static_cast<double>(column.size())) : 0;
    }
    return bits / 8;
}

std::string random_bytes(std::size_t size, std::uint64_t seed) {
    std::mt19937_64 random{seed};
    std::string bytes(size, '\0');
    for (char& byte : bytes) {
        byte = static_cast<char>(random());
    }
    return bytes;
}

// Compresses `data` whole and in pieces; checks that zlib gives it back and returns the size.
std::size_t round_trip(const std::string& data) {
    const std::string packed = compress(data, data.size() + 1);
    CHECK(qprof::test::decompress_with_python(packed, "zlib") == data);
    for (const std::size_t piece : {std::size_t{1}, std::size_t{777}, std::size_t{65'536}}) {
        if (piece > 1 || data.size() <= 300'000) {
            CHECK(compress(data, piece) == packed);
        }
    }
    return packed.size();
}

}  // namespace

TEST_CASE("DEFLATE round-trips through zlib: payload-shaped columns, compressed") {
    round_trip(payload_columns(150'000, 7));
    // The calls of a program repeat: tag and size columns of 40 call patterns (3 to 30 nodes
    // each) in random order, whose matches must save most of what literals alone would take.
    std::mt19937_64 random{17};
    std::vector<std::vector<std::uint64_t>> patterns(40);
    for (auto& pattern : patterns) {
        pattern.resize(3 + random() % 28);
        for (std::uint64_t& tag : pattern) {
            tag = random() % 600;
        }
    }
    std::string tags;
    std::string sizes;
    while (tags.size() < 400'000) {
        const auto& pattern = patterns[random() % patterns.size()];
        for (std::size_t i = 0; i < pattern.size(); ++i) {
            append_varint(tags, pattern[i]);
            append_varint(sizes, pattern.size() - i);
        }
    }
    const double literals_only = entropy_bytes(tags) + entropy_bytes(sizes);
    CHECK(static_cast<double>(round_trip(tags + sizes)) < 0.5 * literals_only);
}

TEST_CASE("DEFLATE round-trips through zlib: incompressible bytes, stored") {
    const std::string bytes = random_bytes(300'000, 11);
    CHECK(round_trip(bytes) < bytes.size() + bytes.size() / 1'000 + 64);
}

TEST_CASE("DEFLATE round-trips through zlib: runs, window-edge matches, tiny inputs") {
    CHECK(round_trip(std::string(1 << 20, '\0')) < 2'000);  // matches of 258 at distance 1
    std::string one_byte_runs;
    for (int run = 0; run < 3'000; ++run) {
        one_byte_runs.append(static_cast<std::size_t>(run % 300), static_cast<char>(run % 5));
    }
    round_trip(one_byte_runs);
    // A random 32 KiB three times: each repeat exactly a window back.
    const std::string window = random_bytes(32'768, 5);
    CHECK(round_trip((window + window + window).substr(0, 98'000)) < 40'000);
    for (const std::string tiny : {"", "x", "abc", "abcd", "abcdabcdabcd", "aaaaaaaa"}) {
        round_trip(tiny);
    }
    // Payload columns and random bytes in turn, over many blocks.
    round_trip(payload_columns(20'000, 3) + random_bytes(200'000, 9) + payload_columns(60'000, 4));
}

TEST_CASE("DEFLATE stores bytes as they are when asked, read back by zlib") {
    const std::string columns = payload_columns(60'000, 21);  // about 250 KB: four blocks
    REQUIRE(columns.size() > 3 * 65'535);
    for (const std::string& data : {columns, std::string{}, std::string{"x"},
                                    random_bytes(65'535, 2), random_bytes(65'536, 3)}) {
        INFO(data.size() << " bytes");
        const std::string packed = compress(data, data.size() + 1, Deflater::Method::store);
        CHECK(qprof::test::decompress_with_python(packed, "zlib") == data);
        // zlib's head (2 bytes) and Adler-32 (4); each stored block a byte of head and 4 of
        // length: the input goes in 128 KiB at a time, each cut into blocks of 65,535 bytes at
        // most (an empty input is one empty block).
        std::size_t blocks = 0;
        std::size_t left = data.size();
        do {
            const std::size_t input = std::min<std::size_t>(left, 128 * 1024);
            blocks += std::max<std::size_t>(1, (input + 65'534) / 65'535);
            left -= input;
        } while (left > 0);
        CHECK(packed.size() == 2 + 4 + data.size() + 5 * blocks);
        for (const std::size_t piece : {std::size_t{1}, std::size_t{777}, std::size_t{65'536}}) {
            if (piece > 1 || data.size() <= 100'000) {
                CHECK(compress(data, piece, Deflater::Method::store) == packed);
            }
        }
    }
    // Compressed, the same columns take a fraction of that.
    CHECK(compress(columns, columns.size()).size() < columns.size() / 2);
}
