// The queue between the HTML payload's encoding thread and its compressing thread: bytes pushed
// in pieces of any size come out in the same order, gathered into pieces of at least 64 KiB
// (only the last may be smaller), and a compressing side that gives up never leaves the
// encoding side waiting.
#include "piece_queue.hpp"

#include <catch2/catch.hpp>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

using qprof::detail::html::PieceQueue;

namespace {

// Bytes that tell their place: byte i of the whole stream is i mod 251.
std::string stream_bytes(std::size_t from, std::size_t count) {
    std::string bytes(count, '\0');
    for (std::size_t i = 0; i < count; ++i) {
        bytes[i] = static_cast<char>((from + i) % 251);
    }
    return bytes;
}

}  // namespace

TEST_CASE("the payload's queue hands small writes over gathered, in order, every byte") {
    PieceQueue queue;
    std::size_t total = 0;
    std::jthread encoder{[&queue, &total] {
        // 20,000 threads' columns of a few bytes each, then a few large ones.
        for (std::size_t i = 0; i < 20'000; ++i) {
            const std::size_t size = 1 + i % 13;
            queue.push(stream_bytes(total, size));
            total += size;
        }
        for (const std::size_t size : {std::size_t{200'000}, std::size_t{70'000}, std::size_t{5}}) {
            queue.push(stream_bytes(total, size));
            total += size;
        }
        queue.close();
    }};
    std::vector<std::size_t> sizes;
    std::string received;
    for (std::string piece; queue.pop(piece);) {
        sizes.push_back(piece.size());
        received += piece;
    }
    encoder.join();
    REQUIRE(received.size() == total);
    CHECK(received == stream_bytes(0, total));
    REQUIRE(sizes.size() >= 2);
    for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
        INFO("piece " << i << " of " << sizes.size());
        CHECK(sizes[i] >= PieceQueue::kPieceBytes);
    }
    CHECK(sizes.size() <= total / PieceQueue::kPieceBytes + 1);  // 20,000 writes: a few pieces
}

TEST_CASE("the payload's queue hands over what is gathered when it is closed, and nothing more") {
    PieceQueue queue;
    queue.push("abc");
    queue.push("de");
    queue.close();
    std::string piece;
    REQUIRE(queue.pop(piece));
    CHECK(piece == "abcde");
    CHECK_FALSE(queue.pop(piece));

    PieceQueue empty;
    empty.close();
    CHECK_FALSE(empty.pop(piece));
}

TEST_CASE("the payload's queue never leaves the encoder waiting once the compressor gives up") {
    PieceQueue queue;
    std::string piece;
    std::jthread encoder{[&queue] {
        // Far more full pieces than the queue holds: without the abandon, the encoder would
        // wait for room forever.
        for (std::size_t i = 0; i < 4 * PieceQueue::kPieces; ++i) {
            queue.push(stream_bytes(i * PieceQueue::kPieceBytes, PieceQueue::kPieceBytes));
        }
        queue.close();
    }};
    REQUIRE(queue.pop(piece));  // the compressor takes one, then fails
    CHECK(piece == stream_bytes(0, PieceQueue::kPieceBytes));
    queue.abandon();
    encoder.join();  // returns: the pieces after the abandon are dropped
}
