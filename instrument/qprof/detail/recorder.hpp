// The per-thread recorder: records appended to a thread-local chunk (records.hpp has their
// words), and the thread's state that a scope (scope_guard.hpp), a key (key_record.hpp), an
// activity's CPU time (activity.hpp), a size or a counter (measure.hpp) writes through.
//
//   record_hit(site);                        // one 8-byte record, no clock read
//
// Records are written when a scope ends, so each thread's stream is in post-order and the
// collector rebuilds the tree from order and depth alone. Only full chunks cross threads; the
// hot path takes no lock and allocates nothing once chunks are recycled.
#pragma once

#include <atomic>
#include <cstdint>
#include <qprof/detail/records.hpp>
#include <qprof/detail/site.hpp>

namespace qprof::detail {

struct Chunk {
    static constexpr std::uint32_t kWords = 8188;  // a chunk is 64 KiB

    std::atomic<std::uint64_t*> published{nullptr};  // end of the complete records
    std::uint32_t generation = 0;                    // the session the records belong to
    std::uint32_t thread = 0;                        // the writer's index in that session
    std::uint32_t consumed = 0;                      // collector side: words already read
    std::uint64_t words[kWords];

    std::uint64_t* limit() { return words + kWords; }

    // Pages of their own (mmap), never the program's heap: freeing 64 KiB there made glibc
    // consolidate every small block the program had freed (instrument/chunk_transport.cpp).
    static void* operator new(std::size_t bytes);
    static void operator delete(void* chunk, std::size_t bytes) noexcept;
};

// A scope still open on this thread, kept so that a session ending inside it can show it.
struct OpenFrame {
    std::uint64_t head;
    std::uint64_t start;
};
inline constexpr std::uint32_t kOpenFrames = 128;
// Regions open at once on a thread, each inside a scope entered in the one before (region.hpp).
inline constexpr std::uint32_t kOpenRegions = 16;

struct ThreadRecord;

// Plain thread-local state, constant-initialised so that access needs no init guard.
struct ThreadState {
    Chunk* chunk;
    ThreadRecord* record;
    std::uint32_t generation;  // the session this thread's chunk belongs to
    std::uint32_t depth;
    OpenFrame open[kOpenFrames];
    std::uint32_t regions;                     // open regions, each a frame of `open`
    std::uint32_t region_depth[kOpenRegions];  // their depths, innermost last
};

// The recording session's generation; 0 while nothing records.
extern std::atomic<std::uint32_t> g_generation;
// Set in the generation of a session that leaves events out (-Z profile-queries-events), so
// that a session recording everything skips the per-site check on a value already in hand.
inline constexpr std::uint32_t kSelectingGeneration = 1u << 31;
// Whether keys are recorded (-Z profile-queries-and-keys). Set before recording begins.
extern bool g_record_keys;
extern thread_local constinit ThreadState t_state __attribute__((tls_model("initial-exec")));

// Slow paths, out of line: join the current session, or swap a full chunk for a free one.
// Both return false when the event must not be recorded (no session, or the thread is exiting).
bool attach_thread(ThreadState& t, std::uint32_t generation);
bool swap_full_chunk(ThreadState& t);
// Ends the regions open at `depth` and deeper at `end_tick` (a scope around them is ending).
void close_regions(ThreadState& t, std::uint32_t depth, std::uint64_t end_tick);

// What this session records at a site, as Site::selection holds it: computed from the site's
// name and the session's EventSelection once per site and session.
std::uint64_t select_site(Site& site, std::uint32_t generation);

// The kinds the session records at `site` (-Z profile-queries-events), a kind_bit each: every
// kind in a session that records everything, which pays one test of its generation; in one
// that leaves events out, a load of the site's selection, computed again once per site and
// session. A caller that tests several kinds loads it once.
inline std::uint64_t selected_kinds(Site& site, std::uint32_t generation) {
    if ((generation & kSelectingGeneration) == 0) [[likely]] {
        return ~std::uint64_t{0};
    }
    const std::uint64_t selection = site.selection.load(std::memory_order_relaxed);
    if (selection >> 32 != generation) [[unlikely]] {
        return select_site(site, generation);
    }
    return selection;
}

// Whether the session records `kind` at `site`.
inline bool selected(Site& site, std::uint32_t generation, RecordKind kind) {
    return (selected_kinds(site, generation) & kind_bit(kind)) != 0;
}

// The calling thread's state, joined to the recording session; null when none records.
inline ThreadState* recording_thread() {
    const std::uint32_t generation = g_generation.load(std::memory_order_acquire);
    if (generation == 0) {
        return nullptr;
    }
    ThreadState& t = t_state;
    if (t.generation != generation) [[unlikely]] {
        if (!attach_thread(t, generation)) {
            return nullptr;
        }
    }
    return &t;
}

// Whether a record of `kind` at `site` would be recorded now, for a caller that chooses
// between scopes (a Query's load, left out, is timed as the miss that may follow it).
inline bool records(Site& site, RecordKind kind) {
    ThreadState* t = recording_thread();
    return t != nullptr && selected(site, t->generation, kind);
}

// Room for a record of `words` words in the thread's chunk, or null when the session has
// ended meanwhile. Publish the record with publish().
inline std::uint64_t* reserve_words(ThreadState& t, std::uint32_t words) {
    std::uint64_t* pos = t.chunk->published.load(std::memory_order_relaxed);
    if (t.chunk->limit() - pos < words) [[unlikely]] {
        if (!swap_full_chunk(t)) {
            return nullptr;
        }
        pos = t.chunk->published.load(std::memory_order_relaxed);
    }
    return pos;
}

// Makes the records before `end` visible to the collector.
inline void publish(ThreadState& t, std::uint64_t* end) {
    t.chunk->published.store(end, std::memory_order_release);
}

// Writes a hit record at `pos`; returns where the next record goes.
inline std::uint64_t* fill_hit(std::uint64_t* pos, const ThreadState& t, Site& site) {
    pos[0] = record_head(RecordKind::hit, t.depth, site_id(site));
    return pos + 1;
}

inline void write_hit(ThreadState& t, Site& site) {
    if (std::uint64_t* pos = reserve_words(t, 1)) {
        publish(t, fill_hit(pos, t, site));
    }
}

inline void record_hit(Site& site) {
    if (ThreadState* t = recording_thread()) {
        if (selected(site, t->generation, RecordKind::hit)) [[likely]] {
            write_hit(*t, site);
        }
    }
}

// The same with a key, taken only while keys are recorded: key(use) calls use(the key)
// (key_record.hpp).
template <typename KeyFn>
void record_hit(Site& site, KeyFn&& key);

}  // namespace qprof::detail
