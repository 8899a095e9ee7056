// The per-thread recorder: fixed-size records appended to a thread-local chunk.
//
//   record_hit(site);                        // one 8-byte record, no clock read
//   { ScopeGuard scope{site, RecordKind::miss}; ... }   // one 24-byte record at scope exit
//                                            // (and a 32-byte memory record after it with
//                                            //  -Z profile-queries-memory)
//
// Records are 64-bit words. The head word packs the record kind, the depth (number of
// scopes open on this thread) and the site id; a timed record adds its start and end
// ticks. Records are written when a scope ends, so each thread's stream is in post-order
// and the collector rebuilds the tree from order and depth alone. Only full chunks cross
// threads; the hot path takes no lock and allocates nothing once chunks are recycled.
#pragma once

#include <atomic>
#include <cstdint>
#include <qprof/detail/alloc_counter.hpp>
#include <qprof/detail/clock.hpp>
#include <qprof/detail/record_limits.hpp>
#include <qprof/detail/site.hpp>
#include <utility>

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

// Times one scope: a provider run, an activity, a load or a blocked wait.
class ScopeGuard {
  public:
    ScopeGuard(Site& site, RecordKind kind) {
        if (ThreadState* t = recording_thread()) {
            if (selected(site, t->generation, kind)) [[likely]] {
                enter(*t, site, kind);
            }
        }
    }
    // With a key, taken only while keys are recorded (an activity's argument: while recording):
    // key(use) calls use(the key).
    template <typename KeyFn>
    ScopeGuard(Site& site, RecordKind kind, KeyFn&& key);
    ~ScopeGuard() {
        if (head_ != 0) {
            leave();
        }
    }
    ScopeGuard(const ScopeGuard&) = delete;
    ScopeGuard& operator=(const ScopeGuard&) = delete;
    ScopeGuard(ScopeGuard&&) = delete;
    ScopeGuard& operator=(ScopeGuard&&) = delete;

    bool recording() const { return head_ != 0; }

    // What the scope turned out to be, e.g. a load that found nothing and became a miss.
    void set_kind(RecordKind kind) {
        if (head_ != 0) {
            const std::uint32_t depth = head_depth(head_);
            head_ = record_head(kind, depth, head_site(head_));
            if (depth < kOpenFrames && t_state.generation == generation_) {
                t_state.open[depth].head = head_;
            }
        }
    }

  private:
    // On a thread attached to the current session, for a kind it records. A scope left out
    // opens no depth: what it asks is recorded as its caller's.
    void enter(ThreadState& t, Site& site, RecordKind kind) {
        if (t.depth >= kMaxRecordedDepth) [[unlikely]] {
            warn_limit(Limit::depth);
            return;  // head_ stays 0: not recorded, and deeper scopes are not either
        }
        const std::uint32_t depth = t.depth++;
        generation_ = t.generation;
        head_ = record_head(kind, depth, site_id(site));
        if (g_record_memory.load(std::memory_order_relaxed)) [[unlikely]] {
            // A query a key's formatter runs inside qprof's own allocations counts its own.
            own_outside_ = std::exchange(t_own_allocations, 0);
            memory_at_entry_ = t_allocations;
            memory_ = true;
        }
        start_ = now();
        if (depth < kOpenFrames) [[likely]] {
            t.open[depth] = OpenFrame{head_, start_};
        }
    }

    void leave() { finish<false>(0); }

    // Writes the scope's record; an activity's CPU time follows it in a cpu record.
    template <bool kWithCpu>
    void finish(std::uint64_t cpu_ns) {
        const std::uint64_t end = now();
        ThreadState& t = t_state;
        if (memory_) [[unlikely]] {
            t_own_allocations = own_outside_;
        }
        if (t.generation != generation_) [[unlikely]] {
            return;  // a newer session began inside this scope; it is not part of that one
        }
        if (memory_) [[unlikely]] {
            finish_with_memory<kWithCpu>(t, end, cpu_ns);
            return;
        }
        const std::uint32_t depth = head_depth(head_);
        if (t.depth != depth + 1) [[unlikely]] {
            close_regions(t, depth + 1, end);  // regions entered inside this scope end with it
        }
        t.depth = depth;
        constexpr std::uint32_t kWords = TimedRecord::kWords + (kWithCpu ? CpuRecord::kWords : 0);
        if (std::uint64_t* pos = reserve_words(t, kWords)) {
            TimedRecord{head_, start_, end}.store(pos);
            if constexpr (kWithCpu) {
                CpuRecord{record_head(RecordKind::cpu, depth, 0), cpu_ns}.store(
                    pos + TimedRecord::kWords);
            }
            publish(t, pos + kWords);
        }
    }
    friend class ActivityGuard;

    // The timed record, its memory record right after it and, for an activity, its cpu record
    // last, all published together so that no reader sees one without the others.
    template <bool kWithCpu>
    void finish_with_memory(ThreadState& t, std::uint64_t end, std::uint64_t cpu_ns) {
        // Before regions are closed or a new chunk is allocated.
        const AllocationCounters at_exit = t_allocations;
        const std::uint32_t depth = head_depth(head_);
        if (t.depth != depth + 1) [[unlikely]] {
            close_regions(t, depth + 1, end);  // regions entered inside this scope end with it
        }
        t.depth = depth;
        constexpr std::uint32_t kMemoryAt = TimedRecord::kWords;
        constexpr std::uint32_t kCpuAt = kMemoryAt + MemoryRecord::kWords;
        constexpr std::uint32_t kWords = kCpuAt + (kWithCpu ? CpuRecord::kWords : 0);
        if (std::uint64_t* pos = reserve_words(t, kWords)) {
            TimedRecord{head_, start_, end}.store(pos);
            MemoryRecord{record_head(RecordKind::memory, depth, head_site(head_)),
                         at_exit.allocated_bytes - memory_at_entry_.allocated_bytes,
                         at_exit.allocations - memory_at_entry_.allocations,
                         at_exit.freed_bytes - memory_at_entry_.freed_bytes}
                .store(pos + kMemoryAt);
            if constexpr (kWithCpu) {
                CpuRecord{record_head(RecordKind::cpu, depth, 0), cpu_ns}.store(pos + kCpuAt);
            }
            publish(t, pos + kWords);
        }
    }

    std::uint64_t head_ = 0;  // 0: not recording
    std::uint64_t start_ = 0;
    std::uint32_t generation_ = 0;
    std::uint32_t own_outside_ = 0;  // t_own_allocations when the scope opened, when memory_
    bool memory_ = false;            // the session records memory: the counters at entry are kept
    AllocationCounters memory_at_entry_;  // set and read only when memory_: not zeroed on entry
};

}  // namespace qprof::detail
