// The non-template half of qprof::Query: the queries this thread is computing, the entry
// other threads wait on while one computes, and the waits-for graph that turns a
// cross-thread cycle into a CycleError instead of a deadlock.
//
//   QueryFrame frame{query, &key, &describe};   // this thread now computes (query, key)
//   pending.frame = &frame;                      // its memo table entry, until it is done
//   ...
//   if (pending.owner == this_thread_id)         // asked again while computing it: a cycle,
//       message += cycle_path(*pending.frame);   // described from this thread's frames
//   WaitRegistration wait{pending};              // another thread computes it: wait for it,
//   if (wait.closing_entry() != nullptr) ...     // unless that closes a cycle between threads
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#if __has_include(<source_location>)
#include <source_location>
#endif
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace qprof::detail {

#if defined(__cpp_lib_source_location)
using SourceLocation = std::source_location;
#else
// clang 14 with libstdc++ has no std::source_location; the builtins it mirrors are there.
struct SourceLocation {
    static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                            std::uint_least32_t line = __builtin_LINE()) {
        SourceLocation where;
        where.file_ = file;
        where.line_ = line;
        return where;
    }
    constexpr const char* file_name() const { return file_; }
    constexpr std::uint_least32_t line() const { return line_; }

    const char* file_ = "";
    std::uint_least32_t line_ = 0;
};
#endif

// Appends `provider(key text)` for the query and key of a frame.
using DescribeQueryFn = void (*)(std::string& out, const void* query, const void* key);

// One query being computed on this thread. Frames live on the stack of Query::operator()
// and link to their caller, so pushing one costs no allocation.
class QueryFrame {
  public:
    QueryFrame(const void* query, const void* key, DescribeQueryFn describe)
        : query_(query), key_(key), describe_(describe), caller_(top_) {
        top_ = this;
    }
    ~QueryFrame() { top_ = caller_; }
    QueryFrame(const QueryFrame&) = delete;
    QueryFrame& operator=(const QueryFrame&) = delete;

    void describe(std::string& out) const { describe_(out, query_, key_); }
    const QueryFrame* caller() const { return caller_; }
    static const QueryFrame* top() { return top_; }

  private:
    const void* query_;
    const void* key_;
    DescribeQueryFn describe_;
    QueryFrame* caller_;
    static inline thread_local constinit QueryFrame* top_ = nullptr;
};

// A result being computed, shared by its owner and the threads waiting for it. Fields other
// than `done` are guarded by the mutex of the shard holding the entry.
struct PendingResult {
    const std::thread::id owner = std::this_thread::get_id();
    const QueryFrame* frame = nullptr;  // the owner's frame; read only on the owner's thread
    std::atomic<bool> done{false};      // atomic: read by the waits-for walk under its own lock
    std::condition_variable ready;
    std::exception_ptr error;
    std::uint32_t waiters = 0;
};

// The path of a cycle on this thread: from `first` (a frame on this thread's stack) to the
// innermost query, then the request that closes the cycle.
inline std::string cycle_path(const QueryFrame& first) {
    std::vector<const QueryFrame*> frames;
    for (const QueryFrame* frame = QueryFrame::top(); frame != nullptr; frame = frame->caller()) {
        frames.push_back(frame);
        if (frame == &first) {
            break;
        }
    }
    std::string path;
    for (auto frame = frames.rbegin(); frame != frames.rend(); ++frame) {
        (*frame)->describe(path);
        path += " \u2192 ";
    }
    return path;
}

// Which thread waits for which entry, consulted only on the blocking path.
class WaitGraph {
  public:
    static WaitGraph& instance() {
        static WaitGraph* graph = new WaitGraph;  // outlives static teardown and late threads
        return *graph;
    }

    // Records that this thread waits for `entry`, unless its owner waits (through other
    // threads) for an entry this thread computes: then returns that entry and records nothing.
    const PendingResult* wait_for(const PendingResult& entry) {
        const std::thread::id self = std::this_thread::get_id();
        std::lock_guard lock{mutex_};
        if (const PendingResult* closing = find_cycle(self, entry)) {
            return closing;
        }
        waits_[self] = &entry;
        return nullptr;
    }

    void done_waiting() {
        std::lock_guard lock{mutex_};
        waits_.erase(std::this_thread::get_id());
    }

    // Threads waiting now, for tests that need a thread to be blocked before going on.
    std::size_t waiting_threads() {
        std::lock_guard lock{mutex_};
        return waits_.size();
    }

  private:
    // Follows owner -> the entry it waits for -> its owner ... A finished entry ends the
    // chain: its waiter is about to wake up and remove its edge.
    const PendingResult* find_cycle(std::thread::id self, const PendingResult& entry) const {
        const PendingResult* current = &entry;
        for (std::size_t step = 0; step <= waits_.size(); ++step) {
            const auto next = waits_.find(current->owner);
            if (next == waits_.end() || next->second->done.load(std::memory_order_acquire)) {
                return nullptr;
            }
            current = next->second;
            if (current->owner == self) {
                return current;
            }
        }
        return nullptr;  // unreachable: the graph never holds a cycle
    }

    std::mutex mutex_;
    // A waiter keeps its entry alive until it has removed its edge.
    std::unordered_map<std::thread::id, const PendingResult*> waits_;
};

// This thread waiting for an entry another thread computes, for as long as it lives.
class WaitRegistration {
  public:
    explicit WaitRegistration(const PendingResult& entry)
        : closing_(WaitGraph::instance().wait_for(entry)) {}
    ~WaitRegistration() {
        if (closing_ == nullptr) {
            WaitGraph::instance().done_waiting();
        }
    }
    WaitRegistration(const WaitRegistration&) = delete;
    WaitRegistration& operator=(const WaitRegistration&) = delete;

    // This thread's entry that the other thread waits for, directly or not; null: no cycle.
    const PendingResult* closing_entry() const { return closing_; }

  private:
    const PendingResult* closing_;
};

}  // namespace qprof::detail
