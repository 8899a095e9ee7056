// The one reading of a thread's records, shared by every consumer of them: the tree builder,
// the totals-only builder, live and off-line. A sink receives
//   key(depth, text_id)        the key of the next node completed at that depth
//   hit(head)                  a hit: a node with no times
//   node(head, start, end)     a timed node
//   memory(amount)             the memory of the node just given (-Z profile-queries-memory)
//   cpu(ns)                    the thread CPU time of the node before it (an activity)
//   size(site, bytes)          a size (qprof::record_size); not a node
//   counter(site, tick, value) a counter's value (qprof::counter); not a node
#pragma once

#include <cstdint>
#include <qprof/detail/recorder.hpp>

#include "totals.hpp"

namespace qprof::detail {

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
            const std::uint32_t words = keys.payload_words(head_site(*pos));
            if (words == 0 || end - pos < 1 + words) {
                return pos;
            }
            sink.key(head_depth(*pos), keys.text_id(head_site(*pos), pos + 1));
            pos += 1 + words;
            continue;
        }
        if (kind == RecordKind::memory) {
            if (end - pos < record_words(kind)) {
                return pos;
            }
            sink.memory(MemoryAmount{pos[1], pos[2], pos[1] - pos[3]});
            pos += record_words(kind);
            continue;
        }
        if (kind == RecordKind::cpu) {
            if (end - pos < record_words(kind)) {
                return pos;
            }
            sink.cpu(pos[1]);
            pos += record_words(kind);
            continue;
        }
        if (kind == RecordKind::size || kind == RecordKind::counter) {
            if (end - pos < record_words(kind)) {
                return pos;
            }
            if (kind == RecordKind::size) {
                sink.size(head_site(*pos), pos[1]);
            } else {
                sink.counter(head_site(*pos), pos[1], static_cast<std::int64_t>(pos[2]));
            }
            pos += record_words(kind);
            continue;
        }
        if (kind < RecordKind::miss || kind > RecordKind::load || end - pos < record_words(kind)) {
            return pos;
        }
        sink.node(pos[0], pos[1], pos[2]);
        pos += record_words(kind);
    }
    return end;
}

}  // namespace qprof::detail
