// The totals tests' records (totals_test.cpp, totals_reference_test.cpp,
// argument_sums_test.cpp): nodes as the recorder writes them, in post-order, fed to a
// TotalsAccumulator, and its totals as text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "totals.hpp"

namespace qprof::test::totals_records {

// Provider slots.
inline constexpr std::uint32_t a = 0, b = 1, c = 2;

// A node as the recorder writes it, in post-order.
struct Record {
    std::uint32_t provider;
    std::uint32_t depth;
    qprof::Outcome outcome;
    std::int64_t start = 0;  // hits keep 0, 0
    std::int64_t end = 0;
};

inline Record miss(std::uint32_t provider, std::uint32_t depth, std::int64_t start,
                   std::int64_t end) {
    return Record{provider, depth, qprof::Outcome::miss, start, end};
}

inline Record hit(std::uint32_t provider, std::uint32_t depth) {
    return Record{provider, depth, qprof::Outcome::hit};
}

inline void feed(qprof::detail::TotalsAccumulator& accumulator,
                 const std::vector<Record>& records) {
    for (const Record& r : records) {
        accumulator.add(r.provider, r.depth, r.outcome, r.start, r.end);
    }
}

inline std::vector<qprof::detail::TickTotals> accumulate(const std::vector<Record>& records) {
    qprof::detail::TotalsAccumulator accumulator;
    feed(accumulator, records);
    return accumulator.totals();
}

inline std::string text(const qprof::detail::TickTotals& t) {
    return "count " + std::to_string(t.count) + " hits " + std::to_string(t.hits) + " misses " +
           std::to_string(t.misses) + " total " + std::to_string(t.total) + " self " +
           std::to_string(t.self) + " blocked " + std::to_string(t.blocked) + " load " +
           std::to_string(t.load);
}

// The totals of one slot as text; a slot never seen reads as zero.
inline std::string slot_text(const std::vector<qprof::detail::TickTotals>& totals,
                             std::uint32_t slot) {
    return text(slot < totals.size() ? totals[slot] : qprof::detail::TickTotals{});
}

// The depth a slot-by-slot comparison goes to, past every provider the tests use.
inline constexpr std::uint32_t kSlots = 6;

}  // namespace qprof::test::totals_records
