// The collector thread: takes the chunks the threads filled, in batches, and rebuilds each
// thread's tree. It wakes every few milliseconds rather than on every chunk, so it stays
// well behind the writers and never makes them wait.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <qprof/detail/recorder.hpp>
#include <thread>
#include <vector>

#include "tree_builder.hpp"

namespace qprof::detail {

class Collector {
  public:
    // With build_trees false, chunks are recycled unread (for measuring the recorder).
    Collector(std::uint32_t generation, bool build_trees, bool record_keys);
    ~Collector();
    Collector(const Collector&) = delete;
    Collector& operator=(const Collector&) = delete;

    // Call after stop_recording(): stops the thread, takes every queued chunk and what the
    // threads still running have written so far.
    void finish();

    std::vector<TreeBuilder>& builders() { return builders_; }
    std::vector<std::string>& key_texts() { return key_texts_.texts(); }

  private:
    void run();
    void join();
    void drain();
    void consume(Chunk& chunk);
    TreeBuilder& builder(std::uint32_t thread);

    const std::uint32_t generation_;
    const bool build_trees_;
    const bool record_keys_;
    KeyTexts key_texts_;
    std::vector<TreeBuilder> builders_;  // by thread index
    std::vector<bool> sealed_;           // threads taken at the end: later records are ignored

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace qprof::detail
