// The queue that carries the HTML payload's columns from the thread that encodes them to the one
// that compresses them (html_payload_text.cpp), gathered into pieces of kPieceBytes.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::detail::html {

// Pieces of the payload's columns on their way from the thread that encodes them to the one
// that compresses them; at most kPieces wait at once. If the compressing side gives up, the
// encoding side's pieces are dropped instead of waiting for room that would never come.
class PieceQueue {
  public:
    static constexpr std::size_t kPieces = 8;
    // What the encoding side gathers before it hands a piece over: a thread's columns can be a
    // few bytes each, and a trace of 20,000 threads, each handed over alone, made 300,000
    // hand-offs that woke the other thread each time (half a second at the end of the run).
    static constexpr std::size_t kPieceBytes = 64 * 1024;

    // The encoding side's: `bytes` go out in a piece of at least kPieceBytes, or at close().
    void push(std::string_view bytes) {
        gathered_.append(bytes);
        if (gathered_.size() >= kPieceBytes) {
            hand_over();
        }
    }
    // No more pieces: pop returns false once the queue is empty.
    void close() {
        if (!gathered_.empty()) {
            hand_over();
        }
        const std::lock_guard lock{mutex_};
        closed_ = true;
        ready_.notify_one();
    }
    void abandon() {
        const std::lock_guard lock{mutex_};
        abandoned_ = true;
        room_.notify_one();
    }
    // The next piece into `bytes`, or false when there is none and there will be none.
    bool pop(std::string& bytes) {
        std::unique_lock lock{mutex_};
        ready_.wait(lock, [&] { return !pieces_.empty() || closed_; });
        if (pieces_.empty()) {
            return false;
        }
        bytes.swap(pieces_.front());  // the caller's last piece goes back as a spare
        spares_.push_back(std::move(pieces_.front()));
        pieces_.pop_front();
        room_.notify_one();
        return true;
    }

  private:
    void hand_over() {
        std::unique_lock lock{mutex_};
        room_.wait(lock, [&] { return pieces_.size() < kPieces || abandoned_; });
        if (!abandoned_) {
            pieces_.push_back(std::move(gathered_));
            ready_.notify_one();
            if (!spares_.empty()) {
                gathered_ = std::move(spares_.back());
                spares_.pop_back();
            }
        }
        gathered_.clear();  // a moved-from string is valid but unspecified
    }

    std::string gathered_;  // the encoding side's alone: no lock
    std::mutex mutex_;
    std::condition_variable ready_;
    std::condition_variable room_;
    std::deque<std::string> pieces_;
    // Pieces the compressing side is done with, given back to be filled again: a new string for
    // each piece grew by doubling, in pages the encoding thread had never touched.
    std::vector<std::string> spares_;
    bool closed_ = false;
    bool abandoned_ = false;
};

}  // namespace qprof::detail::html
