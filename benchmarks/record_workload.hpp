// A synthetic record stream for the raw stream's benchmarks: a seeded random walk over a
// compiler-like query tree (about half hits, depth at most 8, 4 activities and 20 providers),
// cut into 64 KiB chunks as the recorder cuts them, threads interleaved, as the collector
// hands them over.
//
//   Workload workload{3, 1 << 20, 42};
//   workload.for_each_slice([&](const Slice& slice) { use(slice.thread, slice.words); });
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <qprof/detail/recorder.hpp>
#include <qprof/detail/site.hpp>
#include <random>
#include <utility>
#include <vector>

namespace qprof::bench {

inline constexpr const char* kActivities[] = {"parsing", "type checking", "borrow checking",
                                              "code generation"};
inline constexpr const char* kProviders[] = {
    "parse",         "type_of",     "generics_of", "predicates_of", "def_span",
    "fn_sig",        "adt_def",     "param_env",   "layout_of",     "is_copy",
    "typeck",        "trait_impls", "eval_const",  "mir_built",     "borrowck",
    "optimized_mir", "mir_shims",   "item_attrs",  "symbol_name",   "codegen"};

// Registered once: the writer declares every registered site, the reader checks each record's.
struct SiteIds {
    std::deque<qprof::detail::Site> sites;  // never moved: a site's address is its identity
    std::vector<std::uint32_t> activities;
    std::vector<std::uint32_t> providers;

    SiteIds() {
        for (const char* name : kActivities) {
            activities.push_back(add(name, qprof::detail::SiteKind::activity));
        }
        for (const char* name : kProviders) {
            providers.push_back(add(name, qprof::detail::SiteKind::query));
        }
    }

    std::uint32_t add(const char* provider, qprof::detail::SiteKind kind) {
        return qprof::detail::site_id(sites.emplace_back(provider, __FILE__, __LINE__, kind));
    }
};

inline const SiteIds& site_ids() {
    static SiteIds ids;
    return ids;
}

// One thread's records as the recorder leaves them in a chunk: post-order, complete records.
struct Slice {
    std::uint32_t thread = 0;
    std::vector<std::uint64_t> words;
};

// One thread's random walk over the query tree: open a scope, record a hit, or close the
// innermost scope. Top-level scopes are activities, the others provider runs.
class Walk {
  public:
    Walk(std::uint32_t thread, std::uint64_t events, std::uint64_t seed)
        : thread_(thread), target_(events), rng_(seed) {}

    bool done() const { return events_ >= target_ && open_.empty(); }
    std::uint64_t events() const { return events_; }
    std::uint64_t hits() const { return hits_; }
    std::uint64_t now() const { return now_; }

    // The next chunk's worth of records (64 KiB at most, a record never split).
    Slice next_slice() {
        Slice slice{thread_, {}};
        slice.words.reserve(qprof::detail::Chunk::kWords);
        while (!done() && qprof::detail::Chunk::kWords - slice.words.size() >= 3) {
            step(slice.words);
        }
        return slice;
    }

  private:
    static constexpr double kOpen = 0.33;
    static constexpr double kHit = 0.34;  // about as many hits as scopes
    static constexpr std::uint32_t kMaxDepth = 8;

    void step(std::vector<std::uint64_t>& out) {
        const SiteIds& ids = site_ids();
        now_ += std::uniform_int_distribution<std::uint64_t>{20, 400}(rng_);
        const auto depth = static_cast<std::uint32_t>(open_.size());
        const double u = std::uniform_real_distribution<double>{0.0, 1.0}(rng_);
        const bool more = events_ + open_.size() < target_;
        if (more && (open_.empty() || (u < kOpen && depth < kMaxDepth))) {
            const bool activity = depth == 0;
            const auto& sites = activity ? ids.activities : ids.providers;
            const auto kind =
                activity ? qprof::detail::RecordKind::activity : qprof::detail::RecordKind::miss;
            open_.emplace_back(qprof::detail::record_head(kind, depth, pick(sites)), now_);
        } else if (more && u < kOpen + kHit) {
            out.push_back(qprof::detail::record_head(qprof::detail::RecordKind::hit, depth,
                                                     pick(ids.providers)));
            ++hits_;
            ++events_;
        } else {
            out.insert(out.end(), {open_.back().first, open_.back().second, now_});
            open_.pop_back();
            ++events_;
        }
    }

    std::uint32_t pick(const std::vector<std::uint32_t>& sites) {
        return sites[std::uniform_int_distribution<std::size_t>{0, sites.size() - 1}(rng_)];
    }

    std::uint32_t thread_;
    std::uint64_t target_;
    std::mt19937_64 rng_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> open_;  // head, start
    std::uint64_t now_ = 1'000'000;
    std::uint64_t events_ = 0;
    std::uint64_t hits_ = 0;
};

// Several threads' walks, their chunks handed over in turn as the collector drains them.
class Workload {
  public:
    Workload(std::uint32_t threads, std::uint64_t events, std::uint64_t seed) {
        for (std::uint32_t thread = 0; thread < threads; ++thread) {
            walks_.emplace_back(thread, events / threads, seed + thread);
        }
    }

    template <typename Fn>
    void for_each_slice(Fn&& fn) {
        for (bool more = true; more;) {
            more = false;
            for (Walk& walk : walks_) {
                if (!walk.done()) {
                    fn(walk.next_slice());
                    more = true;
                }
            }
        }
    }

    std::uint64_t events() const { return sum(&Walk::events); }
    std::uint64_t hits() const { return sum(&Walk::hits); }
    std::uint64_t end_tick() const {
        std::uint64_t end = 0;
        for (const Walk& walk : walks_) {
            end = std::max(end, walk.now());
        }
        return end + 1;
    }
    std::uint32_t threads() const { return static_cast<std::uint32_t>(walks_.size()); }

  private:
    std::uint64_t sum(std::uint64_t (Walk::*figure)() const) const {
        std::uint64_t total = 0;
        for (const Walk& walk : walks_) {
            total += (walk.*figure)();
        }
        return total;
    }

    std::vector<Walk> walks_;
};

}  // namespace qprof::bench
