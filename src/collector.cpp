#include "collector.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <qprof/detail/alloc_counter.hpp>
#include <qprof/session.hpp>

#include "abnormal_end.hpp"
#include "recording_control.hpp"

namespace qprof::detail {

namespace {
constexpr std::chrono::milliseconds kDrainInterval{5};
}

Collector::Collector(std::uint32_t generation, CollectMode mode, bool record_keys, RawWriter* raw)
    : generation_(generation), mode_(mode), record_keys_(record_keys), raw_(raw) {
    if (raw_ != nullptr) {
        // The stream carries each key's text: activities' arguments are keys, keys recorded or not.
        key_texts_.keep_bindings();
    }
    thread_ = std::thread([this] { run(); });
    if (raw_ != nullptr) {
        raw_flusher_running().store(true);
    }
}

Collector::~Collector() {
    join();
    if (raw_ != nullptr) {
        raw_flusher_running().store(false);
    }
}

void Collector::run() {
    prepare_collector_thread_for_signals();
    // Key formatters run here for keys kept as bytes; the queries they run show on this thread.
    name_this_thread("qprof collector");
    // What the collector allocates is qprof's; a query a formatter runs counts its own.
    const OwnAllocations own;
    for (std::uint32_t seen = collector_signal(); !stopping_.load(); seen = collector_signal()) {
        wait_for_collector_signal(seen, std::chrono::nanoseconds{kDrainInterval}.count());
        drain();
    }
}

void Collector::join() {
    if (thread_.joinable()) {
        stopping_.store(true);
        wake_collector();
        thread_.join();
    }
}

void Collector::drain() {
    Chunk* chunk = nullptr;
    while (pop_full_chunk(chunk)) {
        if (chunk->generation == generation_) {
            consume(*chunk);
        }
        recycle_chunk(chunk);
    }
    if (raw_ != nullptr) {
        // A fatal signal's request, or the periodic flush: the records the threads have not
        // yet handed over go too, so that a short or killed run still leaves its events.
        const std::uint32_t request = flush_requests().load();
        const bool urgent = request != flushes_done().load();
        // Under the manual clock of qprof's tests the stream keeps no timer: the records wait
        // for the end (or a fatal signal's request), so that how a stream's records fall into
        // blocks does not depend on when the collector wakes (the test of its bytes,
        // raw_golden_test, needs that), and nothing is written on the real clock meanwhile
        // (src/testing.hpp). Nor is the clock read for a sample: the manual clock moves on each
        // read (and counts nanoseconds, so it needs no calibration), and a read here would add
        // time to the program's scopes depending on when the collector wakes.
        const bool timed = g_clock_kind != ClockKind::manual;
        if (urgent || (timed && raw_->flush_due())) {
            take_live_records(false);
        }
        if (timed || urgent) {
            raw_->tick(timed ? &now : nullptr, steady_ns(), urgent);
        }
        if (urgent) {
            flushes_done().store(request);
        }
    }
}

void Collector::take_live_records(bool seal) {
    // This session's chunks are freed by this collector only, so they can be read after the
    // registry is let go: key formatters run while they are read, and may record.
    std::vector<std::pair<std::uint32_t, Chunk*>> live;
    for_each_live_thread(generation_, [&live](std::uint32_t thread, Chunk* chunk) {
        live.emplace_back(thread, chunk);
    });
    for (const auto& [thread, chunk] : live) {
        consume(*chunk);
        if (seal) {
            sealed_[thread] = true;
        }
    }
}

bool Collector::open_thread(std::uint32_t thread) {
    if (thread >= sealed_.size()) {
        sealed_.resize(thread + 1, false);
        while (mode_ == CollectMode::trees && trees_.size() <= thread) {
            trees_.emplace_back(record_keys_);
        }
        while (mode_ != CollectMode::none && totals_.size() <= thread) {
            totals_.emplace_back(raw_ != nullptr);  // the raw stream writes every key's text
        }
    }
    return !sealed_[thread];
}

void Collector::read_records(std::uint32_t thread, const std::uint64_t* begin,
                             const std::uint64_t* end) {
    if (mode_ == CollectMode::none) {
        return;
    }
    if (mode_ == CollectMode::trees) {
        trees_[thread].add_records(begin, end, key_texts_);
    }
    // The totals, with the trees too: summed here, on the collector's core, while the program
    // runs, they are not summed again from the nodes at the end (complete_trace).
    if (registered_site_count() > slots_.site_count()) {
        slots_.add_sites(registered_sites_from(slots_.site_count()));
    }
    totals_[thread].add_records(begin, end, key_texts_, slots_);
}

void Collector::consume(Chunk& chunk) {
    if (!open_thread(chunk.thread)) {
        return;
    }
    const std::uint64_t* begin = chunk.words + chunk.consumed;
    const std::uint64_t* end = chunk.published.load(std::memory_order_acquire);
    read_records(chunk.thread, begin, end);
    if (raw_ != nullptr) {
        if (!raw_->knows_thread(chunk.thread)) {
            raw_->name_thread(chunk.thread, thread_name(chunk.thread));
        }
        raw_->records(chunk.thread, begin, end, &key_texts_);
    }
    chunk.consumed = static_cast<std::uint32_t>(end - chunk.words);
}

const std::string& Collector::thread_name(std::uint32_t thread) {
    if (thread >= names_.size()) {
        std::vector<std::string> added =
            thread_names(generation_, static_cast<std::uint32_t>(names_.size()));
        std::move(added.begin(), added.end(), std::back_inserter(names_));
    }
    static const std::string unnamed;
    return thread < names_.size() ? names_[thread] : unnamed;
}

TraceInputs Collector::take_inputs() {
    TraceInputs inputs;
    inputs.trees = std::move(trees_);
    inputs.totals = std::move(totals_);
    inputs.slots = std::move(slots_);
    inputs.keys_recorded = record_keys_;
    inputs.key_texts = std::move(key_texts_.texts());
    return inputs;
}

void Collector::finish() {
    join();
    drain();
    take_live_records(true);
    drain();  // the last chunks of threads that ended meanwhile
}

}  // namespace qprof::detail
