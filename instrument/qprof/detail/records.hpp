// The records of the event stream: their kinds, head words and the words each kind stores.
//
// Records are 64-bit words. The head word packs the record kind, the depth (number of scopes
// open on the writing thread) and the site id; a timed record adds its start and end ticks, a
// hit is the head alone. A key record's words are in key_record.hpp.
#pragma once

#include <cstdint>

namespace qprof::detail {

enum class RecordKind : std::uint8_t {
    hit = 1,
    miss = 2,
    activity = 3,
    blocked = 4,
    load = 5,
    key = 6,  // the key of the next record at the same depth (see key_record.hpp)
    cpu = 7,  // the thread CPU time of the activity record before it (see activity.hpp)
    // Memory used in the timed record right before it (-Z profile-queries-memory): its head
    // as that record's, then allocated bytes, allocations and freed bytes. A number apart from
    // the others, which other record kinds may take.
    memory = 16,
    // A size (qprof::record_size): the head, then the bytes; summed per name by the collector.
    size = 17,
    // A counter's value (qprof::counter): the head, then the tick and the value (an int64).
    counter = 18,
};

inline constexpr std::uint32_t kDepthMask = (1u << 24) - 1;
// Set in the kind byte of a scope still open when its thread or the session ended.
inline constexpr std::uint64_t kUnfinishedBit = std::uint64_t{1} << 63;

constexpr std::uint64_t record_head(RecordKind kind, std::uint32_t depth, std::uint32_t site) {
    return static_cast<std::uint64_t>(kind) << 56 |
           static_cast<std::uint64_t>(depth & kDepthMask) << 32 | site;
}
constexpr RecordKind head_kind(std::uint64_t head) {
    return static_cast<RecordKind>((head >> 56) & 0x7f);
}
constexpr bool head_unfinished(std::uint64_t head) { return (head & kUnfinishedBit) != 0; }
constexpr std::uint32_t head_depth(std::uint64_t head) {
    return static_cast<std::uint32_t>(head >> 32) & kDepthMask;
}
constexpr std::uint32_t head_site(std::uint64_t head) { return static_cast<std::uint32_t>(head); }
// A record kind's bit in a site's selection.
constexpr std::uint64_t kind_bit(RecordKind kind) {
    return std::uint64_t{1} << static_cast<unsigned>(kind);
}
// Kinds 2 to 5: a scope, with its start and end ticks.
constexpr bool is_timed(RecordKind kind) {
    return kind >= RecordKind::miss && kind <= RecordKind::load;
}
// Kinds 1 to 5: what END counts and reports call events (a hit or a scope).
constexpr bool is_event(RecordKind kind) { return kind == RecordKind::hit || is_timed(kind); }

// The words of each record kind after the hit's lone head (a key record's are in
// key_record.hpp): one definition for the recorder that stores them and for every reader
// (src/record_parser.hpp, io/raw_records.cpp). docs/raw-format.md, "Records", has the table.
struct TimedRecord {  // kinds 2 to 5
    static constexpr std::uint32_t kWords = 3;
    std::uint64_t head;
    std::uint64_t start;  // ticks
    std::uint64_t end;

    void store(std::uint64_t* pos) const {
        pos[0] = head;
        pos[1] = start;
        pos[2] = end;
    }
    static TimedRecord load(const std::uint64_t* pos) { return {pos[0], pos[1], pos[2]}; }
};
struct CpuRecord {  // right after an activity's record (or its memory record)
    static constexpr std::uint32_t kWords = 2;
    std::uint64_t head;  // the activity's depth, site 0
    std::uint64_t ns;    // thread CPU time between the activity's entry and exit

    void store(std::uint64_t* pos) const {
        pos[0] = head;
        pos[1] = ns;
    }
    static CpuRecord load(const std::uint64_t* pos) { return {pos[0], pos[1]}; }
};
struct MemoryRecord {  // right after a timed record, with -Z profile-queries-memory
    static constexpr std::uint32_t kWords = 4;
    std::uint64_t head;  // the timed record's depth and site
    std::uint64_t allocated_bytes;
    std::uint64_t allocations;
    std::uint64_t freed_bytes;

    void store(std::uint64_t* pos) const {
        pos[0] = head;
        pos[1] = allocated_bytes;
        pos[2] = allocations;
        pos[3] = freed_bytes;
    }
    static MemoryRecord load(const std::uint64_t* pos) { return {pos[0], pos[1], pos[2], pos[3]}; }
};
struct SizeRecord {  // qprof::record_size
    static constexpr std::uint32_t kWords = 2;
    std::uint64_t head;
    std::uint64_t bytes;

    void store(std::uint64_t* pos) const {
        pos[0] = head;
        pos[1] = bytes;
    }
    static SizeRecord load(const std::uint64_t* pos) { return {pos[0], pos[1]}; }
};
struct CounterRecord {  // qprof::counter
    static constexpr std::uint32_t kWords = 3;
    std::uint64_t head;
    std::uint64_t tick;
    std::int64_t value;

    void store(std::uint64_t* pos) const {
        pos[0] = head;
        pos[1] = tick;
        pos[2] = static_cast<std::uint64_t>(value);
    }
    static CounterRecord load(const std::uint64_t* pos) {
        return {pos[0], pos[1], static_cast<std::int64_t>(pos[2])};
    }
};

// Words of a record other than a key record (whose length depends on the key type).
constexpr std::uint32_t record_words(RecordKind kind) {
    switch (kind) {
        case RecordKind::hit:
            return 1;
        case RecordKind::cpu:
            return CpuRecord::kWords;
        case RecordKind::memory:
            return MemoryRecord::kWords;
        case RecordKind::size:
            return SizeRecord::kWords;
        case RecordKind::counter:
            return CounterRecord::kWords;
        default:
            return TimedRecord::kWords;
    }
}

}  // namespace qprof::detail
