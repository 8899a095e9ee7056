// The reader's checks of a RECORDS block: every record sound before any reaches a builder,
// which trusts records as it trusts live ones. Kept per run: what the run's records showed
// (events, latest tick, summed durations), for its END and for estimates when it is cut.
#pragma once

#include <cstdint>
#include <qprof/detail/site.hpp>
#include <span>

#include "key_texts.hpp"

namespace qprof::detail {

class RecordChecker {
  public:
    RecordChecker() = default;
    // A new run, whose clock started at `start_tick`.
    void start(std::uint64_t start_tick);
    // Throws raw::FormatError at the first bad word: `words` were read at `words_at` in the
    // file; `sites` (by id) and `keys` types are declared so far. A record must name a site of
    // its kind: a size record a size site, a scope a query, activity or region site.
    void check(std::span<const std::uint64_t> words, std::uint64_t words_at,
               std::span<const RegisteredSite> sites, const RecordedKeyTexts& keys);
    // Throws unless `tick` lies within raw::kMaxTickDistance of the start.
    void check_tick(std::uint64_t tick, std::uint64_t at);

    std::uint64_t events() const { return events_; }
    // Timed records whose end tick comes before their start tick.
    std::uint64_t reversed() const { return reversed_; }
    std::uint64_t max_tick() const { return max_tick_; }
    // The durations of the timed records since the last call, in ticks.
    double take_summed_ticks();

  private:
    explicit RecordChecker(std::uint64_t start_tick) : start_tick_(start_tick) {}
    // `rest`: the record's words to the end of its block.
    std::uint32_t record_length(std::span<const std::uint64_t> rest, std::uint64_t at,
                                std::span<const RegisteredSite> sites,
                                const RecordedKeyTexts& keys) const;

    std::uint64_t start_tick_ = 0;
    std::uint64_t events_ = 0;
    std::uint64_t reversed_ = 0;
    std::uint64_t max_tick_ = 0;
    double summed_ticks_ = 0;
};

}  // namespace qprof::detail
