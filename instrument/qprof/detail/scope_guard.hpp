// Times one scope: a provider run, an activity, a load or a blocked wait.
//
//   { ScopeGuard scope{site, RecordKind::miss}; ... }   // one 24-byte record at scope exit
//                                                       // (and a 32-byte memory record after
//                                                       //  it with -Z profile-queries-memory)
//
// In line in the program's code, through the thread's recorder (recorder.hpp): entry reads the
// clock and keeps the scope among the thread's open frames; exit reads it again and writes the
// record (records.hpp).
#pragma once

#include <cstdint>
#include <qprof/detail/alloc_counter.hpp>
#include <qprof/detail/clock.hpp>
#include <qprof/detail/record_limits.hpp>
#include <qprof/detail/recorder.hpp>
#include <qprof/detail/records.hpp>
#include <qprof/detail/site.hpp>
#include <utility>

namespace qprof::detail {

class ScopeGuard {
  public:
    ScopeGuard(Site& site, RecordKind kind) {
        // Likely, so that the compiler lays out no session as the fall-through: otherwise the
        // disabled scope took two taken jumps (1.07 ns on an Intel host, over its 1 ns budget);
        // a recording scope pays one, which hides behind its clock reads.
        if (g_generation.load(std::memory_order_relaxed) == 0) [[likely]] {
            return;
        }
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
