#include "collector.hpp"

#include <chrono>

#include "recording_control.hpp"

namespace qprof::detail {

namespace {
constexpr std::chrono::milliseconds kDrainInterval{5};
}

Collector::Collector(std::uint32_t generation, bool build_trees, bool record_keys)
    : generation_(generation),
      build_trees_(build_trees),
      record_keys_(record_keys),
      thread_([this] { run(); }) {}

Collector::~Collector() { join(); }

void Collector::run() {
    std::unique_lock lock{mutex_};
    while (!stopping_) {
        wake_.wait_for(lock, kDrainInterval);
        lock.unlock();
        drain();
        lock.lock();
    }
}

void Collector::join() {
    if (thread_.joinable()) {
        {
            std::lock_guard lock{mutex_};
            stopping_ = true;
        }
        wake_.notify_one();
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
}

TreeBuilder& Collector::builder(std::uint32_t thread) {
    while (thread >= builders_.size()) {
        builders_.emplace_back(record_keys_);
        sealed_.push_back(false);
    }
    return builders_[thread];
}

void Collector::consume(Chunk& chunk) {
    TreeBuilder& tree = builder(chunk.thread);
    if (sealed_[chunk.thread]) {
        return;
    }
    const std::uint64_t* begin = chunk.words + chunk.consumed;
    const std::uint64_t* end = chunk.published.load(std::memory_order_acquire);
    if (build_trees_) {  // otherwise the records are not even read: the recorder is measured
        tree.add_records(begin, end, key_texts_);
    }
    chunk.consumed = static_cast<std::uint32_t>(end - chunk.words);
}

void Collector::finish() {
    join();
    drain();
    for_each_live_thread(generation_, [this](std::uint32_t thread, Chunk* chunk) {
        consume(*chunk);
        sealed_[thread] = true;
    });
    drain();  // the last chunks of threads that ended meanwhile
}

}  // namespace qprof::detail
