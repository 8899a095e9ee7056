// The collector's lighter mode, for runs whose reports need only per-provider totals (counts,
// raw): each thread's records go straight into a TotalsAccumulator and no node is kept, so
// memory stays flat however long the program runs.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <qprof/detail/recorder.hpp>
#include <qprof/detail/site.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "key_texts.hpp"
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
    // Each added site's slot, by site id: site_count() of them.
    const std::uint32_t* slots_of_sites() const { return slot_of_site_.data(); }
    // Each slot's provider, by slot.
    const std::vector<ProviderKey>& providers() const { return providers_; }

  private:
    std::vector<std::uint32_t> slot_of_site_;
    std::map<ProviderKey, std::uint32_t> slot_of_provider_;
    std::vector<ProviderKey> providers_;
};

class TotalsBuilder {
  public:
    // With `every_key_text`, each key record's text is looked up as it is read (the raw
    // stream writes the texts of a chunk's keys before its records); otherwise only an
    // activity's argument gets a text, when the activity ends, and no query key is formatted.
    explicit TotalsBuilder(bool every_key_text = false) : every_key_text_(every_key_text) {}

    template <typename Keys>
    const std::uint64_t* add_records(const std::uint64_t* begin, const std::uint64_t* end,
                                     Keys& key_texts, const ProviderSlots& slots) {
        slots_ = &slots;
        slot_of_site_ = slots.slots_of_sites();
        site_count_ = slots.site_count();
        keys_ = &key_texts;
        text_id_of_ = [](void* keys, std::uint32_t type, const std::uint64_t* payload) {
            return static_cast<Keys*>(keys)->text_id(type, payload);
        };
        if (site_hits_.size() < site_count_) {
            site_hits_.resize(site_count_, 0);
        }
        const std::uint64_t* stop = parse_records(begin, end, key_texts, *this);
        add_site_hits();
        return stop;
    }

    // parse_records' sink: an activity's key (its argument) is kept until the activity ends,
    // for the sums per argument; as bytes, so that a query's key is never formatted here.
    template <typename Record>
    void key(std::uint32_t depth, const Record& record) {
        quiet_hit_depth_ = kNoDepth;  // the next hit at its depth must clear it
        if (depth >= pending_keys_.size()) {
            pending_keys_.resize(std::size_t{depth} + 1);
            key_depths_ = depth + 1;
        }
        PendingKey& pending = pending_keys_[depth];
        if (every_key_text_) {
            pending.text_id = record.text_id();
        } else if (record.words > kMaxPayloadWords) {  // counted chars, copied whole
            pending.bytes.type = record.type;
            pending.long_payload.assign(record.payload, record.payload + record.words);
        } else {  // only the words the type has (text_id reads no others), in an unrolled loop
            pending.bytes.type = record.type;
            pending.long_payload.clear();
            for (std::size_t i = 0; i < kMaxPayloadWords; ++i) {
                if (i < record.words) {
                    pending.bytes.payload[i] = record.payload[i];
                }
            }
        }
    }
    // Inline, with no times to sum: most records are hits. A hit at the depth of the hit
    // before it, with no other record between them, changes nothing but its counts (see
    // quiet_hit_depth_): it is counted by site, and the counts are added by provider when
    // add_records returns.
    void hit(std::uint64_t head) {
        const std::uint32_t site = head_site(head);
        const std::uint32_t depth = head_depth(head);
        last_head_ = head;
        last_is_activity_ = false;
        if (depth == quiet_hit_depth_ && site < site_count_) [[likely]] {
            ++site_hits_[site];
            return;
        }
        mark_site_seen(sites_seen_, site);
        if (depth < key_depths_) [[unlikely]] {
            pending_keys_[depth].clear();  // its key, if any: a hit is no activity
        }
        totals_.add_hit(slot(site), depth);
        ++events_;
        quiet_hit_depth_ = totals_.quiet_for_hits(depth) ? depth : kNoDepth;
    }
    void node(std::uint64_t head, std::uint64_t start, std::uint64_t end) {
        quiet_hit_depth_ = kNoDepth;
        const std::uint32_t site = head_site(head);
        const std::uint32_t depth = head_depth(head);
        mark_site_seen(sites_seen_, site);
        last_is_activity_ = head_kind(head) == RecordKind::activity;
        std::uint32_t key = 0;
        if (depth < key_depths_) [[unlikely]] {
            PendingKey& pending = pending_keys_[depth];
            key = argument_of(pending);
            pending.clear();
        }
        last_head_ = head;
        last_slot_ = slot(site);
        totals_.add(last_slot_, depth, outcome_of(head_kind(head)),
                    static_cast<std::int64_t>(start), static_cast<std::int64_t>(end), key);
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
    // The key of the next node at a depth: its text id, or its bytes until a text is needed.
    struct PendingKey {
        std::uint32_t text_id = 0;
        KeyBytes bytes;                           // type 0: none
        std::vector<std::uint64_t> long_payload;  // the payload when bytes cannot hold it
        void clear() {
            text_id = 0;
            bytes.type = 0;
        }
    };
    static constexpr std::size_t kMaxPayloadWords = std::tuple_size_v<decltype(KeyBytes::payload)>;

    // The text id of the key of the node just read, for an activity (0 for none).
    std::uint32_t argument_of(const PendingKey& pending) const {
        if (!last_is_activity_ || pending.bytes.type == 0) {
            return pending.text_id;
        }
        return text_id_of_(keys_, pending.bytes.type,
                           pending.long_payload.empty() ? pending.bytes.payload.data()
                                                        : pending.long_payload.data());
    }

    // The hits counted by site since add_records began, added to the totals by provider.
    void add_site_hits() {
        for (std::uint32_t site = 0; site < site_hits_.size(); ++site) {
            if (const std::uint64_t hits = site_hits_[site]; hits != 0) {
                mark_site_seen(sites_seen_, site);
                totals_.add_hits(slot(site), hits);
                events_ += hits;
                site_hits_[site] = 0;
            }
        }
    }

    // ProviderSlots::slot, through the slots of the add_records call running (they do not
    // change while it runs), so that no record loads the vector's bounds.
    std::uint32_t slot(std::uint32_t site) const {
        return site < site_count_ ? slot_of_site_[site] : 0;
    }

    const ProviderSlots* slots_ = nullptr;
    const std::uint32_t* slot_of_site_ = nullptr;
    std::uint32_t site_count_ = 0;
    std::uint32_t key_depths_ = 0;  // pending_keys_.size()
    // The depth at which a hit changes nothing but its counts, kNoDepth for none: that of the
    // last record, a hit, when the totals said so (TotalsAccumulator::quiet_for_hits) and no
    // key record has come since (the hit would clear it). Any other record resets it.
    static constexpr std::uint32_t kNoDepth = ~std::uint32_t{0};
    std::uint32_t quiet_hit_depth_ = kNoDepth;
    std::vector<std::uint64_t> site_hits_;  // by site id, hits counted in line
    bool every_key_text_ = false;
    void* keys_ = nullptr;  // those of the add_records call running, for argument_of
    std::uint32_t (*text_id_of_)(void* keys, std::uint32_t type,
                                 const std::uint64_t* payload) = nullptr;
    TotalsAccumulator totals_;
    SitesSeen sites_seen_;
    std::uint64_t events_ = 0;
    std::vector<PendingKey> pending_keys_;  // by depth
    std::uint64_t last_head_ = 0;
    bool memory_seen_ = false;
    std::uint32_t last_slot_ = 0;
    bool last_is_activity_ = false;  // the last node, until its cpu record comes
    MeasureBuilder measures_{false};
};

}  // namespace qprof::detail
