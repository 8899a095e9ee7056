// The payload's columns made into the page's text (html_payload_text.hpp): DEFLATE, compressed
// or stored, then base64; on threads of their own, with a queue of pieces from the thread that
// encodes them to the one that compresses them, or in line.
#include "html_payload_text.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>

#include "base64.hpp"
#include "deflate.hpp"
#include "html_payload_layout.hpp"
#include "piece_queue.hpp"

namespace qprof::detail::html {

namespace {

// How many threads PayloadPipeline may start: 2 unless a test pretends that fewer can.
std::atomic<int> payload_threads_allowed{2};
// Past this size of the columns' text, hits' keys are left out: kColumnsBudgetBytes unless a
// test pretends that a small page is that heavy.
std::atomic<std::uint64_t> columns_budget{layout::kColumnsBudgetBytes};

// A thread for PayloadPipeline's `index`th task; throws as std::jthread does when none can start.
template <typename Body>
std::jthread start_payload_thread(int index, Body& body) {
    if (index >= payload_threads_allowed.load(std::memory_order_relaxed)) {
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    }
    return std::jthread{body};
}

}  // namespace

PayloadColumns write_payload_columns(std::ostream& out, const Trace& trace,
                                     const std::vector<Preorder>& orders,
                                     const Importance& important, bool hit_keys,
                                     Deflater::Method method) {
    Base64Writer text{out};
    Deflater deflater{[&](std::string_view bytes) { text.write(bytes); }, Deflater::zlib, method};
    PayloadColumns sizes = encode_payload_columns(
        [&](std::string_view bytes) { deflater.write(bytes); }, trace, orders, important, hit_keys);
    deflater.finish();
    text.finish();
    return sizes;
}

// Compressed, one thread encodes the columns, another compresses them (DEFLATE, then base64)
// piece by piece as they come, so the caller waits for the longer of the two instead of their
// sum. The compressor is given the same pieces in the same order as in line, so the bytes are
// the same; in line is what happens when no thread can be started, and the caller encodes when
// only one can. Stored, one thread does it all, in line. The threads only read the trace, as
// the caller does.
class PayloadPipeline {
  public:
    // `text_bytes`: room made for the text before the threads start (text_room).
    PayloadPipeline(const Trace& trace, const std::vector<Preorder>& orders,
                    const Importance& important, bool hit_keys, Deflater::Method method,
                    std::uint64_t text_bytes)
        : text_(reserved(text_bytes)) {
        auto compress = [this, method] {
            try {
                Base64Writer text{text_};
                Deflater deflater{[&](std::string_view bytes) { text.write(bytes); },
                                  Deflater::zlib, method};
                for (std::string piece; pieces_.pop(piece);) {
                    deflater.write(piece);
                }
                deflater.finish();
                text.finish();
            } catch (...) {
                compress_failed_ = std::current_exception();
                pieces_.abandon();
            }
        };
        auto encode = [this, &trace, &orders, &important, hit_keys] {
            try {
                columns_ =
                    encode_payload_columns([this](std::string_view bytes) { pieces_.push(bytes); },
                                           trace, orders, important, hit_keys);
            } catch (...) {
                encode_failed_ = std::current_exception();
            }
            pieces_.close();
        };
        // Every step on one thread: stored columns on the reporter's, any in line.
        auto one_thread = [this, &trace, &orders, &important, hit_keys, method] {
            try {
                columns_ = write_payload_columns(text_, trace, orders, important, hit_keys, method);
            } catch (...) {
                encode_failed_ = std::current_exception();
            }
        };
        try {
            if (method == Deflater::Method::store) {
                // Framed, checked and made base64 as they are encoded, on one thread: less work
                // than a hand-off through the queue to a third thread, which on a machine of two
                // cores takes a core from the page's thread.
                compressor_ = start_payload_thread(0, one_thread);
                return;
            }
            compressor_ = start_payload_thread(0, compress);
        } catch (const std::system_error&) {
            one_thread();
            return;
        }
        try {
            encoder_ = start_payload_thread(1, encode);
        } catch (...) {  // whatever stopped the thread, the compressor waits for the queue's end
            encode();
        }
    }

    // Waits until the columns are made; returns their sizes.
    const PayloadColumns& finish() {
        for (std::jthread* thread : {&encoder_, &compressor_}) {
            if (thread->joinable()) {
                thread->join();
            }
        }
        for (const std::exception_ptr& failed : {encode_failed_, compress_failed_}) {
            if (failed) {
                std::rethrow_exception(failed);
            }
        }
        return columns_;
    }
    std::uint64_t text_bytes() const { return text_.view().size(); }
    void write(std::ostream& out) const { out << text_.view(); }

  private:
    // An empty string with room for `bytes`: the stream writes into that room (its put area is
    // the string's capacity) instead of growing the text by doubling on the compressor's
    // thread, whose fresh pages cost it about 1,000 page faults for 280,000 events. Made here,
    // on the caller's thread, the room is usually memory the program has already touched.
    static std::string reserved(std::uint64_t bytes) {
        std::string text;
        text.reserve(bytes);
        return text;
    }

    std::ostringstream text_;
    PayloadColumns columns_;
    PieceQueue pieces_;
    std::exception_ptr encode_failed_;
    std::exception_ptr compress_failed_;
    // Last: joined before the rest is destroyed, the encoder first (the compressor ends when the
    // encoder has closed the queue).
    std::jthread compressor_;
    std::jthread encoder_;
};

PayloadText::PayloadText(const Trace& trace, const std::vector<Preorder>& orders,
                         const Importance& important)
    : trace_(trace),
      orders_(orders),
      important_(important),
      least_bytes_(columns_least_bytes(trace, orders)),
      method_(columns_method(least_bytes_)),
      pipeline_(std::make_unique<PayloadPipeline>(trace, orders, important, true, method_,
                                                  text_room())) {}

PayloadText::~PayloadText() = default;

const PayloadColumns& PayloadText::write(std::ostream& out) {
    // Past the page's budget, made again compressed if they were stored, then without hits'
    // keys if they still weigh it past: the other columns cannot be known compressed without
    // compressing them, and only a page that heavy pays for it again.
    bool hit_keys = true;
    while (pipeline_->finish().hit_keys > 0 &&
           pipeline_->text_bytes() > columns_budget.load(std::memory_order_relaxed)) {
        if (method_ == Deflater::Method::store) {
            method_ = Deflater::Method::compress;
        } else {
            hit_keys = false;
        }
        pipeline_.reset();  // its text first: it may be tens of MB
        pipeline_ = std::make_unique<PayloadPipeline>(trace_, orders_, important_, hit_keys,
                                                      method_, text_room());
    }
    const PayloadColumns& columns = pipeline_->finish();
    pipeline_->write(out);
    return columns;
}

std::uint64_t PayloadText::text_room() const {
    if (method_ != Deflater::Method::store) {
        return 0;  // how much compression saves is not known before
    }
    // Stored, the columns take a little more than their least: 1.09 times it for 280,000 events
    // of a scan (varints of durations and gaps take 2 or 3 bytes where a tag or a size takes 1).
    // Then zlib's header and check (6 bytes) and 5 bytes a stored block of at most 65,535; as
    // base64, 4 characters for 3 bytes.
    const std::uint64_t columns = least_bytes_ + least_bytes_ / 4;
    const std::uint64_t stream = columns + 6 + 5 * (columns / 65'535 + 1);
    return (stream + 2) / 3 * 4;
}

void allow_payload_threads(int threads) {
    payload_threads_allowed.store(threads, std::memory_order_relaxed);
}

void set_columns_budget(std::uint64_t bytes) {
    columns_budget.store(bytes, std::memory_order_relaxed);
}

}  // namespace qprof::detail::html
