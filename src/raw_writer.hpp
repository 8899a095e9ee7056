// Writes profile_queries.qprof while the program runs: the collector hands it every slice of
// records it takes, and it copies them into RECORDS blocks together with whatever the reader
// will need to make sense of them (sites, key types, key texts, thread names) -- each declared
// before the first block that uses it. A crash leaves a readable prefix of at most a second
// less; a full disk turns the writer off with one message, never the program.
#pragma once

#include <chrono>
#include <cstdint>
#include <qprof/report_options.hpp>
#include <qprof/trace.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "colour_classes.hpp"
#include "key_texts.hpp"
#include "raw_format.hpp"
#include "raw_session.hpp"

namespace qprof::detail {

// The name of the raw stream among the reporters (-Z profile-queries=raw). It is written
// while the program runs, not at the end: its reporter (reporters/raw_reporter.cpp) only
// gives it a description and a file name.
inline constexpr std::string_view kRawReporter = "raw";

// What the writer is told of the run: the SESSION block, and what goes into the optional
// blocks after it.
struct RawSession {
    // The clock's start, keys, the report options and the process (its pid, program and start
    // time go into SESSION, the rest into PROCESS).
    raw::SessionBlock block;
    EventSelection selection;  // written as a SELECTION block when it leaves something out
    // Gives each site its colour class, written as a CLASSES block after the site's SITES
    // block; null: the sites' own classes. Must outlive the writer.
    const ColourRules* colours = nullptr;
};

class RawWriter {
  public:
    // Creates the file and writes its header and SESSION block. Throws std::runtime_error
    // naming the path and the reason when it cannot.
    RawWriter(const std::string& path, const RawSession& session);
    // The same into `fd`, a file already created at `path` (exclusively, by the session),
    // which the writer now owns.
    RawWriter(int fd, std::string path, const RawSession& session);
    ~RawWriter();
    RawWriter(const RawWriter&) = delete;
    RawWriter& operator=(const RawWriter&) = delete;

    // Whether a THREAD block has named this thread yet; name it before its first records.
    bool knows_thread(std::uint32_t thread) const {
        return thread < thread_known_.size() && thread_known_[thread];
    }
    void name_thread(std::uint32_t thread, const std::string& name);
    // One thread's complete records [begin, end), after the collector has read them (so
    // that `keys`, when given, knows their types and texts).
    void records(std::uint32_t thread, const std::uint64_t* begin, const std::uint64_t* end,
                 KeyTexts* keys);
    // Whether the next tick() flushes: 100 ms after the start, then every second.
    bool flush_due() const;
    // A calibration sample (the clock read through `read_tick`, only when one is due; none
    // when it is null), and a flush when due or when `flush_now`.
    void tick(std::uint64_t (*read_tick)(), std::uint64_t steady_ns, bool flush_now = false);
    // Final thread names, END, and the file closed; END's `blocks` is the writer's count.
    void finish(raw::EndBlock end, const std::vector<std::string>& thread_names);

    const std::string& path() const { return path_; }
    // Whether writing stopped on an error (said on stderr): the file is a valid prefix.
    bool failed() const { return failed_; }

  private:
    void sync_sites();
    void sync_key_types(const KeyTexts& keys);
    void write_bindings(KeyTexts& keys);
    raw::BlockEncoder block(raw::BlockType type) { return {buffer_, type, seq_++}; }
    void flush();

    std::string path_;
    int fd_ = -1;  // -1 once closed or failed
    bool failed_ = false;
    std::uint64_t offset_ = 0;  // bytes written to the file
    std::uint32_t seq_ = 0;
    std::string buffer_;
    std::chrono::steady_clock::time_point last_flush_;
    bool records_flushed_ = false;  // a flush after the one at the start has happened
    std::uint64_t last_sample_ns_ = 0;
    std::uint32_t samples_ = 0;
    std::uint32_t sites_written_ = 1;      // id 0 is never written
    std::uint32_t key_types_written_ = 1;  // likewise
    const ColourRules* colours_ = nullptr;
    std::vector<std::string> thread_names_;
    std::vector<bool> thread_known_;
};

}  // namespace qprof::detail
