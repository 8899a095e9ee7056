// The one reading of a thread's records, shared by every consumer of them: the tree builder,
// the totals-only builder, live and off-line. A sink receives
//   key(depth, record)         the key of the next node completed at that depth (a KeyRecord:
//                              its text id is looked up, and the key formatted, on demand)
//   hit(head)                  a hit: a node with no times
//   node(head, start, end)     a timed node
//   memory(amount)             the memory of the node just given (-Z profile-queries-memory)
//   cpu(ns)                    the thread CPU time of the node before it (an activity)
//   size(site, bytes)          a size (qprof::record_size); not a node
//   counter(site, tick, value) a counter's value (qprof::counter); not a node
#pragma once

#include <cstdint>
#include <qprof/detail/recorder.hpp>

#include "key_texts.hpp"
#include "totals.hpp"

namespace qprof::detail {

// A key record as parse_records hands it on, valid until the sink's key() returns. The text id
// is looked up only when asked for: a sink that needs no text for some keys (the totals, for a
// query's key) then never formats them.
template <typename Keys>
struct KeyRecord {
    Keys& keys;
    std::uint32_t type;
    const std::uint64_t* payload;
    std::uint32_t words;

    std::uint32_t text_id() const { return keys.text_id(type, payload); }
};

// Reads the complete records in [begin, end); returns where it stopped: `end`, or a record it
// does not know or one cut off by `end`.
template <typename Keys, typename Sink>
const std::uint64_t* parse_records(const std::uint64_t* begin, const std::uint64_t* end, Keys& keys,
                                   Sink& sink) {
    for (const std::uint64_t* pos = begin; pos < end;) {
        const RecordKind kind = head_kind(*pos);
        if (kind == RecordKind::hit) {  // first: three records in four, in a typical run
            sink.hit(*pos);
            ++pos;
            continue;
        }
        if (kind == RecordKind::key) {
            const std::uint32_t words = key_payload_words(keys, pos, end);
            if (words == 0 || end - pos < 1 + words) {
                return pos;
            }
            sink.key(head_depth(*pos), KeyRecord<Keys>{keys, head_site(*pos), pos + 1, words});
            pos += 1 + words;
            continue;
        }
        if (kind == RecordKind::memory) {
            if (end - pos < record_words(kind)) {
                return pos;
            }
            const MemoryRecord memory = MemoryRecord::load(pos);
            sink.memory(MemoryAmount{memory.allocated_bytes, memory.allocations,
                                     memory.allocated_bytes - memory.freed_bytes});
            pos += record_words(kind);
            continue;
        }
        if (kind == RecordKind::cpu) {
            if (end - pos < record_words(kind)) {
                return pos;
            }
            sink.cpu(CpuRecord::load(pos).ns);
            pos += record_words(kind);
            continue;
        }
        if (kind == RecordKind::size || kind == RecordKind::counter) {
            if (end - pos < record_words(kind)) {
                return pos;
            }
            if (kind == RecordKind::size) {
                sink.size(head_site(*pos), SizeRecord::load(pos).bytes);
            } else {
                const CounterRecord counter = CounterRecord::load(pos);
                sink.counter(head_site(*pos), counter.tick, counter.value);
            }
            pos += record_words(kind);
            continue;
        }
        if (!is_timed(kind) || end - pos < record_words(kind)) {
            return pos;
        }
        const TimedRecord timed = TimedRecord::load(pos);
        sink.node(timed.head, timed.start, timed.end);
        pos += record_words(kind);
    }
    return end;
}

}  // namespace qprof::detail
