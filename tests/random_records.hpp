// Random streams of records, as the recorder writes them or as a damaged file could hold them,
// for the tests that check what the builders make of them (totals_reference_test.cpp,
// trace_totals_test.cpp).
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <iterator>
#include <qprof/detail/recorder.hpp>
#include <random>
#include <vector>

#include "totals_records.hpp"

namespace qprof::test::totals_records {

using qprof::Outcome;

inline qprof::detail::RecordKind kind_of(Outcome outcome) {
    using qprof::detail::RecordKind;
    switch (outcome) {
        case Outcome::hit:
            return RecordKind::hit;
        case Outcome::blocked:
            return RecordKind::blocked;
        case Outcome::load:
            return RecordKind::load;
        case Outcome::activity:
            return RecordKind::activity;
        case Outcome::miss:
            break;
    }
    return RecordKind::miss;
}

inline constexpr std::uint32_t kProviders = 5;  // few, so that providers re-enter often

inline std::uint64_t below(std::mt19937_64& rng, std::uint64_t bound) { return rng() % bound; }

inline Outcome timed_outcome(std::mt19937_64& rng) {
    constexpr Outcome kTimed[] = {Outcome::miss, Outcome::miss, Outcome::activity, Outcome::blocked,
                                  Outcome::load};
    return kTimed[below(rng, std::size(kTimed))];
}

// A thread as the recorder writes it: scopes nest, hits are leaves. Sometimes the session
// began inside a few scopes, a scope's record is lost (its children go to its parent, two
// levels up) or scopes are still open at the end (never written).
inline std::vector<Record> recorder_stream(std::mt19937_64& rng, std::uint32_t max_depth,
                                           std::size_t events) {
    std::vector<Record> records;
    std::vector<Record> open;
    const auto base = static_cast<std::uint32_t>(below(rng, 4) == 0 ? below(rng, 4) : 0);
    std::int64_t clock = static_cast<std::int64_t>(below(rng, 1000));
    for (std::size_t event = 0; event < events; ++event) {
        clock += static_cast<std::int64_t>(below(rng, 5));
        const auto depth = base + static_cast<std::uint32_t>(open.size());
        const std::uint64_t choice = below(rng, 100);
        if (choice < 40 && open.size() < max_depth) {
            open.push_back(Record{static_cast<std::uint32_t>(below(rng, kProviders)), depth,
                                  timed_outcome(rng), clock});
        } else if (choice < 70 || open.empty()) {
            records.push_back(hit(static_cast<std::uint32_t>(below(rng, kProviders)), depth));
        } else {
            open.back().end = clock;
            if (below(rng, 20) != 0) {
                records.push_back(open.back());
            }
            open.pop_back();
        }
    }
    while (!open.empty() && below(rng, 4) != 0) {
        open.back().end = ++clock;
        records.push_back(open.back());
        open.pop_back();
    }
    return records;
}

// Records in any order of depths, as a damaged or hostile file could hold: hits adopt
// children, depths jump both ways, durations may be negative.
inline std::vector<Record> arbitrary_stream(std::mt19937_64& rng, std::size_t count) {
    std::vector<Record> records;
    for (std::size_t i = 0; i < count; ++i) {
        const auto provider = static_cast<std::uint32_t>(below(rng, kProviders));
        const auto depth = static_cast<std::uint32_t>(below(rng, 8));
        if (below(rng, 4) == 0) {
            records.push_back(hit(provider, depth));
        } else {
            const auto start = static_cast<std::int64_t>(below(rng, 200)) - 50;
            const auto end = start + static_cast<std::int64_t>(below(rng, 120)) - 20;
            records.push_back(Record{provider, depth, timed_outcome(rng), start, end});
        }
    }
    return records;
}

// The records as the recorder stores them: a hit's head alone, a scope's head, start and end.
inline std::vector<std::uint64_t> record_words(const std::vector<Record>& records) {
    std::vector<std::uint64_t> words;
    for (const Record& r : records) {
        words.push_back(qprof::detail::record_head(kind_of(r.outcome), r.depth, r.provider));
        if (r.outcome != Outcome::hit) {
            words.push_back(static_cast<std::uint64_t>(r.start));
            words.push_back(static_cast<std::uint64_t>(r.end));
        }
    }
    return words;
}

// No key records in these streams.
struct NoKeys {
    std::uint32_t payload_words(std::uint32_t) const { return 0; }
    bool counted(std::uint32_t) const { return false; }
    std::uint32_t text_id(std::uint32_t, const std::uint64_t*) const { return 0; }
};

// Cuts the words into chunks at record boundaries, as the recorder's chunks are cut, and gives
// each to `read`, which must read it whole.
template <typename Read>
inline void read_in_chunks(std::mt19937_64& rng, const std::vector<std::uint64_t>& words,
                           Read read) {
    const std::uint64_t* pos = words.data();
    const std::uint64_t* const end = words.data() + words.size();
    while (pos < end) {
        const std::uint64_t* cut = pos;
        for (std::uint64_t records = 1 + below(rng, 40); records > 0 && cut < end; --records) {
            cut += qprof::detail::head_kind(*cut) == qprof::detail::RecordKind::hit ? 1 : 3;
        }
        REQUIRE(read(pos, cut) == cut);
        pos = cut;
    }
}

}  // namespace qprof::test::totals_records
