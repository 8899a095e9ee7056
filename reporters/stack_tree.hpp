// The trace merged by call path, as flame graphs draw it: each distinct stack of frames once
// -- the thread (unless threads are merged; in a merged build of several runs, the program and
// then the thread by its own name), then provider and activity names from the root down --
// with how often it ran, the time spent in it and, when recorded, the bytes allocated in it. Shared
// by the folded, flamegraph and pprof reporters.
#pragma once

#include <cstdint>
#include <limits>
#include <qprof/trace.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::detail {

struct StackOptions {
    bool merge_threads = false;  // one root frame, "all threads", instead of one per thread
    bool hits = false;           // cache hits as leaf frames (a count, no time)
    bool keys = false;           // the key in the frame, "type_of(DefId{0, 1})": many more stacks
    bool args = false;  // an activity's argument in its frame, "codegen unit(math)"; keys imply it
};

// Frames of one provider with different outcomes stay apart: a flame graph colours them.
enum class FrameKind : std::uint8_t { thread, miss, hit, blocked, load, activity };

struct StackFrame {
    static constexpr std::uint32_t kNoParent = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t parent = kNoParent;
    FrameKind kind = FrameKind::thread;
    std::string name;  // thread name, or provider / activity name with "(key)" if asked
    std::string_view colour_class;  // its provider's (into Trace::colour_classes); "" for none
    std::uint32_t provider = 0;     // into Trace::providers; 0 for a thread or program frame
    std::uint32_t key = 0;      // the key or argument in its name: 1 + index into Trace::key_texts
    std::uint64_t count = 0;    // nodes merged into this frame (threads and programs: 1 each)
    std::int64_t total_ns = 0;  // their inclusive time; for a thread or program, its roots'
    std::int64_t self_ns = 0;   // total minus the total of the child frames
    // With -Z profile-queries-memory, the bytes allocated inside and the allocations, as
    // total_ns and self_ns: a node's memory is inclusive. Hits and unfinished scopes carry none.
    std::int64_t total_bytes = 0;
    std::int64_t self_bytes = 0;
    std::int64_t total_allocations = 0;
    std::int64_t self_allocations = 0;
};

class StackTree {
  public:
    StackTree(const Trace& trace, const StackOptions& options);

    // Parents before children; siblings in the order they first ran.
    const std::vector<StackFrame>& frames() const { return frames_; }
    // The frame's stack from the root, its own name last.
    std::vector<std::uint32_t> path(std::uint32_t frame) const;

  private:
    std::vector<StackFrame> frames_;
};

}  // namespace qprof::detail
