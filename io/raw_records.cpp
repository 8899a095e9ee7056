#include "raw_records.hpp"

#include <algorithm>
#include <qprof/detail/recorder.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "raw_cursor.hpp"
#include "raw_format.hpp"

namespace qprof::detail {

using raw::corrupt;

namespace {
constexpr std::string_view kSiteKindNames[] = {"query", "activity", "region", "size", "counter"};

// The site kinds a record of `kind` may name: a scope's record (or its memory record) the
// kinds its macros register, a size or a counter its own.
bool site_fits(RecordKind kind, SiteKind site) {
    switch (kind) {
        case RecordKind::size:
            return site == SiteKind::size;
        case RecordKind::counter:
            return site == SiteKind::counter;
        case RecordKind::activity:
            return site == SiteKind::activity || site == SiteKind::region;
        case RecordKind::memory:
            return site == SiteKind::query || site == SiteKind::activity ||
                   site == SiteKind::region;
        default:
            return site == SiteKind::query;
    }
}

// What a record of `kind` is called in a message.
std::string record_name(RecordKind kind) {
    const auto number = " record (kind " + std::to_string(static_cast<int>(kind)) + ")";
    switch (kind) {
        case RecordKind::size:
            return "a size" + number;
        case RecordKind::counter:
            return "a counter" + number;
        case RecordKind::memory:
            return "a memory" + number;
        case RecordKind::activity:
            return "an activity" + number;
        default:
            return "a query" + number;
    }
}

std::string site_name(SiteKind kind) {
    return kind == SiteKind::activity
               ? "an activity site"
               : "a " + std::string{kSiteKindNames[static_cast<int>(kind)]} + " site";
}
}  // namespace

void RecordChecker::start(std::uint64_t start_tick) { *this = RecordChecker{start_tick}; }

void RecordChecker::check(std::span<const std::uint64_t> words, std::uint64_t words_at,
                          std::span<const RegisteredSite> sites, const RecordedKeyTexts& keys) {
    RecordKind previous = RecordKind::key;
    for (std::size_t pos = 0; pos < words.size();) {
        const std::uint64_t at = words_at + pos * 8;
        const std::uint64_t head = words[pos];
        const RecordKind kind = head_kind(head);
        if (kind == RecordKind::memory && !is_timed(previous)) {
            corrupt(at,
                    "a memory record that does not follow a timed record (kinds 2 to 5) in "
                    "its block");
        }
        previous = kind;
        if (head_depth(head) >= raw::kMaxDepth) {
            corrupt(at, "record depth " + std::to_string(head_depth(head)) +
                            " (expected less than " + std::to_string(raw::kMaxDepth) + ")");
        }
        const std::uint32_t length = record_length(words.subspan(pos), at, sites, keys);
        if (words.size() - pos < length) {
            corrupt(at, "a record of " + std::to_string(length) +
                            " words is cut off by the end of its block");
        }
        const std::uint64_t* record = words.data() + pos;
        if (kind == RecordKind::cpu) {
            const std::uint64_t ns = CpuRecord::load(record).ns;
            if (ns > raw::kMaxTickDistance) {
                corrupt(at + 8,
                        "CPU time of " + std::to_string(ns) + " ns (expected at most 2^52)");
            }
        } else if (kind == RecordKind::counter) {
            check_tick(CounterRecord::load(record).tick, at + 8);
        } else if (is_timed(kind)) {
            const TimedRecord timed = TimedRecord::load(record);
            check_tick(timed.start, at + 8);
            check_tick(timed.end, at + 16);
            summed_ticks_ += static_cast<double>(
                timed.end >= timed.start ? timed.end - timed.start : timed.start - timed.end);
            reversed_ += timed.end < timed.start;
        }
        events_ += is_event(kind) ? 1 : 0;
        pos += length;
    }
}

std::uint32_t RecordChecker::record_length(std::span<const std::uint64_t> rest, std::uint64_t at,
                                           std::span<const RegisteredSite> sites,
                                           const RecordedKeyTexts& keys) const {
    const std::uint64_t head = rest[0];
    const RecordKind kind = head_kind(head);
    const std::uint32_t id = head_site(head);
    if (kind == RecordKind::key) {
        if (keys.counted(id)) {
            if (rest.size() < 2) {
                corrupt(at, "a key record's count of chars is cut off by the end of its block");
            }
            if (rest[1] > kMaxCountedChars) {
                corrupt(at + 8, "key record of " + std::to_string(rest[1]) +
                                    " chars (expected at most " + std::to_string(kMaxCountedChars) +
                                    ")");
            }
            return 1 + static_cast<std::uint32_t>(counted_chars_words(rest[1]));
        }
        const std::uint32_t words = keys.payload_words(id);
        if (words == 0) {
            corrupt(at, "key record of undeclared key type " + std::to_string(id));
        }
        return 1 + words;
    }
    if (kind == RecordKind::cpu) {
        return record_words(kind);  // no site: it belongs to the activity before it
    }
    if (!is_event(kind) && kind != RecordKind::memory && kind != RecordKind::size &&
        kind != RecordKind::counter) {
        corrupt(at, "unknown record kind " + std::to_string(static_cast<int>(kind)) +
                        " (expected 1 to 7, or 16 to 18)");
    }
    if (id == 0 || id >= sites.size()) {
        corrupt(at, "record of undeclared site " + std::to_string(id) + " (" +
                        std::to_string(sites.size() - 1) + " declared)");
    }
    if (const SiteKind site = sites[id].kind; !site_fits(kind, site)) {
        corrupt(at, record_name(kind) + " of site " + std::to_string(id) + ", which is " +
                        site_name(site) + ": the record and its site disagree");
    }
    return record_words(kind);
}

void RecordChecker::check_tick(std::uint64_t tick, std::uint64_t at) {
    const std::uint64_t distance = tick >= start_tick_ ? tick - start_tick_ : start_tick_ - tick;
    if (distance > raw::kMaxTickDistance) {
        corrupt(at, "clock value " + std::to_string(tick) + " is " + std::to_string(distance) +
                        " ticks from the session start (expected at most 2^52)");
    }
    max_tick_ = std::max(max_tick_, tick);
}

double RecordChecker::take_summed_ticks() { return std::exchange(summed_ticks_, 0.0); }

}  // namespace qprof::detail
