// The collector's lighter mode, for runs whose reports need only per-provider totals (counts,
// raw): each thread's records go straight into a TotalsAccumulator and no node is kept, so
// memory stays flat however long the program runs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <qprof/detail/recorder.hpp>
#include <qprof/detail/site.hpp>
#include <string>
#include <utility>
#include <vector>

#include "record_parser.hpp"
#include "totals.hpp"
#include "tree_builder.hpp"

namespace qprof::detail {

// Numbers providers -- a name and whether it is an activity, as Trace::providers counts
// them -- so that re-entrance is seen across the call sites of one provider.
class ProviderSlots {
  public:
    // Sites with the next ids, in id order (id 0 included, first).
    void add_sites(const std::vector<RegisteredSite>& sites);
    std::uint32_t site_count() const { return static_cast<std::uint32_t>(slot_of_site_.size()); }
    // The slot of a site id; ids not added yet share slot 0.
    std::uint32_t slot(std::uint32_t site) const {
        return site < slot_of_site_.size() ? slot_of_site_[site] : 0;
    }
    // Each slot's provider, by slot.
    const std::vector<std::pair<std::string, bool>>& providers() const { return providers_; }

  private:
    std::vector<std::uint32_t> slot_of_site_;
    std::map<std::pair<std::string, bool>, std::uint32_t> slot_of_provider_;
    std::vector<std::pair<std::string, bool>> providers_;
};

class TotalsBuilder {
  public:
    template <typename Keys>
    const std::uint64_t* add_records(const std::uint64_t* begin, const std::uint64_t* end,
                                     Keys& key_texts, const ProviderSlots& slots) {
        slots_ = &slots;
        return parse_records(begin, end, key_texts, *this);
    }

    // parse_records' sink: keys are read (the raw stream needs their texts); an activity's
    // (its argument) is kept until the activity ends, for the sums per argument.
    void key(std::uint32_t depth, std::uint32_t text_id) {
        if (depth >= pending_keys_.size()) {
            pending_keys_.resize(std::size_t{depth} + 1, 0);
        }
        pending_keys_[depth] = text_id;
    }
    // Inline, with no times to sum: most records are hits.
    void hit(std::uint64_t head) {
        const std::uint32_t site = head_site(head);
        const std::uint32_t depth = head_depth(head);
        mark_site_seen(sites_seen_, site);
        if (depth < pending_keys_.size()) {
            pending_keys_[depth] = 0;  // its key, if any: a hit is no activity
        }
        last_head_ = head;
        last_is_activity_ = false;
        totals_.add_hit(slots_->slot(site), depth);
        ++events_;
    }
    void node(std::uint64_t head, std::uint64_t start, std::uint64_t end) {
        const std::uint32_t site = head_site(head);
        const std::uint32_t depth = head_depth(head);
        mark_site_seen(sites_seen_, site);
        std::uint32_t key = 0;
        if (depth < pending_keys_.size()) {
            key = std::exchange(pending_keys_[depth], 0);
        }
        // An end before the start (a clock that went back) is no time, as in a completed tree.
        last_head_ = head;
        last_slot_ = slots_->slot(site);
        last_is_activity_ = head_kind(head) == RecordKind::activity;
        totals_.add(last_slot_, depth, outcome_of(head_kind(head)),
                    static_cast<std::int64_t>(start),
                    static_cast<std::int64_t>(std::max(start, end)), key);
        ++events_;
    }
    // Counted as a completed tree counts it: for a finished timed node only.
    void memory(const MemoryAmount& amount) {
        if (carries_memory(last_head_)) {
            totals_.add_memory(slots_->slot(head_site(last_head_)), head_depth(last_head_), amount);
            memory_seen_ = true;
        }
    }
    bool memory_seen() const { return memory_seen_; }
    void size(std::uint32_t site, std::uint64_t bytes) { measures_.size(site, bytes); }
    void counter(std::uint32_t site, std::uint64_t tick, std::int64_t value) {
        measures_.counter(site, tick, value);
    }
    // Sizes and counters, counters by their totals only.
    const MeasureBuilder& measures() const { return measures_; }
    void cpu(std::uint64_t ns) {
        if (last_is_activity_) {
            totals_.add_cpu(last_slot_, ns);
            last_is_activity_ = false;
        }
    }

    const SitesSeen& sites_seen() const { return sites_seen_; }
    const TotalsAccumulator& totals() const { return totals_; }
    std::uint64_t events() const { return events_; }

  private:
    const ProviderSlots* slots_ = nullptr;
    TotalsAccumulator totals_;
    SitesSeen sites_seen_;
    std::uint64_t events_ = 0;
    std::vector<std::uint32_t> pending_keys_;  // by depth: the key of the next node there
    std::uint64_t last_head_ = 0;
    bool memory_seen_ = false;
    std::uint32_t last_slot_ = 0;
    bool last_is_activity_ = false;  // the last node, until its cpu record comes
    MeasureBuilder measures_{false};
};

}  // namespace qprof::detail
