// The collector thread: takes the chunks the threads filled, in batches, and rebuilds each
// thread's tree -- or only its totals, when no report needs the nodes -- and streams the
// records to the raw file when one is written. It wakes every few milliseconds, or when a few
// full chunks wait (kWakeChunks, recording_control.hpp), rather than on every chunk, so it stays
// behind the writers and never makes them wait, yet reads a burst while the program runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <qprof/detail/recorder.hpp>
#include <thread>
#include <vector>

#include "raw_writer.hpp"
#include "trace_completion.hpp"

namespace qprof::detail {

enum class CollectMode {
    trees,   // every node kept: reports that draw the trace
    totals,  // per-provider totals only: flat memory
    none,    // chunks recycled unread, for measuring the recorder itself
};

class Collector {
  public:
    // `raw`, when given, receives every slice of records after it has been read.
    Collector(std::uint32_t generation, CollectMode mode, bool record_keys, RawWriter* raw);
    ~Collector();
    Collector(const Collector&) = delete;
    Collector& operator=(const Collector&) = delete;

    // Call after stop_recording(): stops the thread, takes every queued chunk and what the
    // threads still running have written so far.
    void finish();

    // What was gathered, for complete_trace (the calibration and names are the session's).
    TraceInputs take_inputs();

  private:
    void run();
    void join();
    void drain();
    // Takes what the live threads have published in their current chunks; `seal`: at the end.
    void take_live_records(bool seal);
    void consume(Chunk& chunk);
    void read_records(std::uint32_t thread, const std::uint64_t* begin, const std::uint64_t* end);
    // Makes room for a thread's builder; false once the thread was taken at the end.
    bool open_thread(std::uint32_t thread);
    const std::string& thread_name(std::uint32_t thread);

    const std::uint32_t generation_;
    const CollectMode mode_;
    const bool record_keys_;
    RawWriter* const raw_;
    KeyTexts key_texts_;
    std::vector<TreeBuilder> trees_;     // by thread index, in CollectMode::trees
    std::vector<TotalsBuilder> totals_;  // by thread index, in CollectMode::totals and trees
    ProviderSlots slots_;
    std::vector<std::string> names_;  // the threads' names, fetched when a new thread shows up
    std::vector<bool> sealed_;        // threads taken at the end: later records are ignored

    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace qprof::detail
