// Slow paths of the recorder: the thread registry (which threads record, into which session,
// under which name), starting and stopping recording, and each site's selection. The chunks
// themselves travel in chunk_transport.cpp.
#include <algorithm>
#include <memory>
#include <mutex>
#include <qprof/detail/alloc_counter.hpp>
#include <qprof/detail/record_limits.hpp>
#include <stdexcept>
#include <thread>

#include "chunk_transport.hpp"
#include "fork_safety.hpp"
#include "recording_control.hpp"

namespace qprof::detail {

std::atomic<std::uint32_t> g_generation{0};
thread_local constinit ThreadState t_state{};
std::atomic<bool> g_record_memory{false};
thread_local constinit AllocationCounters t_allocations{};
thread_local constinit std::uint32_t t_own_allocations = 0;

namespace {

// Marks a thread whose thread-local objects are being destroyed: it records no more.
constexpr std::uint32_t kThreadExited = ~0u;
constexpr std::size_t kInitialChunks = 16;

}  // namespace

// What the session may read of a thread from another thread.
struct ThreadRecord {
    std::atomic<Chunk*> current{nullptr};  // the chunk being written
    std::uint32_t generation = 0;          // the session the thread joined last
    std::uint32_t index = 0;               // its index in that session
    std::string name;                      // set by name_this_thread, kept across sessions
};

namespace {

struct Registry {
    std::mutex mutex;
    std::vector<ThreadRecord*> live;
    std::uint32_t last_generation = 0;
    std::uint32_t active_generation = 0;  // the generation of the running session, 0 if none
    std::vector<std::string> names;       // by thread index, for the active generation
    std::thread::id session_thread;
};

Registry& registry() {
    static Registry* instance = new Registry;
    return *instance;
}

// Made while the program is loaded, before main, when it has one thread: a fork() can then
// never find another thread initialising this function-local static, whose guard a child
// would wait on forever (README, "When the program forks").
// The fork handlers too, so that no session start installs them.
[[maybe_unused]] const bool g_registry_made_at_load = (install_fork_handlers(), registry(), true);

std::string default_thread_name(std::uint32_t index, bool is_session_thread) {
    if (is_session_thread) {
        return "main";
    }
    return "thread " + std::to_string(index);
}

// Writes one record per scope still open on this thread, innermost first (post-order). A
// region is not unfinished: the thread's or the session's end is how a region ends.
void write_unfinished_scopes(ThreadState& t, std::uint64_t end_tick) {
    if (t.generation != g_generation.load(std::memory_order_acquire) || t.chunk == nullptr) {
        return;
    }
    for (std::uint32_t depth = std::min(t.depth, kOpenFrames); depth-- > 0;) {
        std::uint64_t* pos = reserve_words(t, TimedRecord::kWords);
        if (pos == nullptr) {
            return;
        }
        const bool region = t.regions > 0 && t.region_depth[t.regions - 1] == depth;
        t.regions -= region ? 1 : 0;
        const std::uint64_t head = t.open[depth].head | (region ? 0 : kUnfinishedBit);
        TimedRecord{head, t.open[depth].start, end_tick}.store(pos);
        publish(t, pos + TimedRecord::kWords);
    }
    t.depth = 0;
    t.regions = 0;
}

// Hands a thread's last chunk to the collector when the thread ends.
struct ExitHook {
    bool armed = false;
    ~ExitHook() {
        ThreadState& t = t_state;
        write_unfinished_scopes(t, now());  // only exit() leaves scopes open here
        Registry& reg = registry();
        std::lock_guard lock{reg.mutex};
        if (t.chunk != nullptr) {
            if (t.generation == reg.active_generation) {
                send_full_chunk(t.chunk);
            } else {
                delete t.chunk;
            }
        }
        std::erase(reg.live, t.record);
        delete t.record;
        t.chunk = nullptr;
        t.record = nullptr;
        t.generation = kThreadExited;
    }
};

thread_local ExitHook t_exit_hook;

// Called with the registry locked.
void ensure_thread_record(ThreadState& t, Registry& reg) {
    if (t.record == nullptr) {
        t_exit_hook.armed = true;  // constructs the hook, so the thread's end flushes its chunk
        t.record = new ThreadRecord;
        reg.live.push_back(t.record);
    }
}

}  // namespace

bool attach_thread(ThreadState& t, std::uint32_t generation) {
    if (t.generation == kThreadExited) {
        return false;
    }
    const OwnAllocations own;  // the thread's record, its name, its first chunk
    Registry& reg = registry();
    std::lock_guard lock{reg.mutex};
    if (reg.active_generation != generation) {
        return false;  // that session ended meanwhile
    }
    ensure_thread_record(t, reg);
    if (t.chunk != nullptr) {
        give_back_chunk(t.chunk);  // left over from an earlier session
    }
    t.chunk = take_free_chunk();
    if (reg.names.size() >= kMaxRecordedThreads) [[unlikely]] {
        // Over the limit: the thread records into chunks of no session, which the collector
        // drops, so that its events cost no lock either.
        warn_limit(Limit::threads);
        prepare_chunk(t.chunk, 0, 0);
        t.record->generation = 0;
    } else {
        t.record->index = static_cast<std::uint32_t>(reg.names.size());
        reg.names.push_back(t.record->name.empty()
                                ? default_thread_name(t.record->index, std::this_thread::get_id() ==
                                                                           reg.session_thread)
                                : t.record->name);
        prepare_chunk(t.chunk, generation, t.record->index);
        t.record->generation = generation;
    }
    t.record->current.store(t.chunk, std::memory_order_release);
    t.depth = 0;
    t.regions = 0;
    t.generation = generation;
    return true;
}

void close_regions(ThreadState& t, std::uint32_t depth, std::uint64_t end_tick) {
    while (t.regions > 0 && t.region_depth[t.regions - 1] >= depth) {
        const std::uint32_t region = t.region_depth[--t.regions];
        t.depth = region;
        if (std::uint64_t* pos = reserve_words(t, TimedRecord::kWords)) {
            TimedRecord{t.open[region].head, t.open[region].start, end_tick}.store(pos);
            publish(t, pos + TimedRecord::kWords);
        }
    }
}

bool swap_full_chunk(ThreadState& t) {
    if (g_generation.load(std::memory_order_acquire) != t.generation) {
        return false;  // the session has ended: this scope closed after it
    }
    const OwnAllocations own;  // a new chunk when none is free
    Chunk* full = t.chunk;
    Chunk* fresh = take_free_chunk();
    prepare_chunk(fresh, full->generation, full->thread);  // generation 0: a dropped thread
    t.chunk = fresh;
    t.record->current.store(fresh, std::memory_order_release);  // before the full one leaves
    send_full_chunk(full);
    return true;
}

namespace {

// The selection of the session recording, or of the last one. Each session's is kept until
// the process ends: a thread may still be reading the previous one while the next starts.
std::atomic<const EventSelection*> g_events{nullptr};

const EventSelection* keep_selection(const EventSelection& events) {
    static const EventSelection* const everything = new EventSelection;
    if (events.everything()) {
        return everything;
    }
    static auto* kept = new std::vector<std::unique_ptr<const EventSelection>>;  // under reg.mutex
    return kept->emplace_back(std::make_unique<const EventSelection>(events)).get();
}

}  // namespace

std::uint64_t select_site(Site& site, std::uint32_t generation) {
    const EventSelection* events = g_events.load(std::memory_order_acquire);
    std::uint64_t kinds = 0;
    if (events == nullptr || events->records(site.provider)) {
        const bool all = events == nullptr;
        kinds = kind_bit(RecordKind::miss) | (all || events->hits ? kind_bit(RecordKind::hit) : 0) |
                (all || events->activities ? kind_bit(RecordKind::activity) : 0) |
                (all || events->waits ? kind_bit(RecordKind::blocked) : 0) |
                (all || events->loads ? kind_bit(RecordKind::load) : 0) |
                (all || events->sizes ? kind_bit(RecordKind::size) : 0) |
                (all || events->counters ? kind_bit(RecordKind::counter) : 0) |
                (all || events->records_keys_of(site.provider) ? kind_bit(RecordKind::key) : 0);
    }
    const std::uint64_t selection = std::uint64_t{generation} << 32 | kinds;
    site.selection.store(selection, std::memory_order_relaxed);  // any thread computes the same
    return selection;
}

RecordingStart begin_recording(ClockKind clock, bool record_keys, bool record_memory,
                               const EventSelection& events) {
    install_fork_handlers();
    Registry& reg = registry();
    std::lock_guard lock{reg.mutex};
    if (reg.active_generation != 0) {
        throw std::logic_error(
            "qprof: a qprof::Session is already recording; end it before starting another "
            "(sessions cannot overlap)");
    }
    g_clock_kind = clock;
    g_record_keys = record_keys;
    g_events.store(keep_selection(events), std::memory_order_release);
    stock_free_chunks(kInitialChunks);
    do {
        reg.last_generation = (reg.last_generation + 1) & ~kSelectingGeneration;
    } while (reg.last_generation == 0);
    reg.active_generation = reg.last_generation | (events.everything() ? 0 : kSelectingGeneration);
    reg.names.clear();
    reg.session_thread = std::this_thread::get_id();
    // The manual clock of qprof's tests counts nanoseconds: it is its own steady time, so
    // that the start of a test's raw stream is the same on every run.
    const std::uint64_t tick = now();
    const RecordingStart start{reg.active_generation, tick,
                               clock == ClockKind::manual ? tick : steady_ns()};
    g_record_memory.store(record_memory, std::memory_order_relaxed);
    g_generation.store(reg.active_generation, std::memory_order_release);
    return start;
}

void stop_recording() {
    g_generation.store(0, std::memory_order_release);
    g_record_memory.store(false, std::memory_order_relaxed);
}

void end_recording() {
    Registry& reg = registry();
    std::lock_guard lock{reg.mutex};
    reg.active_generation = 0;
    release_free_chunks();
}

void for_each_live_thread(std::uint32_t generation,
                          const std::function<void(std::uint32_t, Chunk*)>& fn) {
    Registry& reg = registry();
    std::lock_guard lock{reg.mutex};
    for (ThreadRecord* record : reg.live) {
        Chunk* chunk = record->current.load(std::memory_order_acquire);
        if (record->generation == generation && chunk != nullptr) {
            fn(record->index, chunk);
        }
    }
}

std::vector<std::string> thread_names(std::uint32_t generation, std::uint32_t first) {
    Registry& reg = registry();
    std::lock_guard lock{reg.mutex};
    if (reg.active_generation != generation || first >= reg.names.size()) {
        return {};
    }
    return {reg.names.begin() + first, reg.names.end()};
}

void close_open_scopes(std::uint64_t end_tick) { write_unfinished_scopes(t_state, end_tick); }

// The registry's lock is taken before the chunk lists' everywhere (attach_thread, ExitHook),
// so too here.
void lock_registry_for_fork() {
    registry().mutex.lock();
    lock_chunk_lists_for_fork();
}
void unlock_registry_after_fork() {
    unlock_chunk_lists_after_fork();
    registry().mutex.unlock();
}

void forget_recording_in_fork_child() {
    g_generation.store(0, std::memory_order_release);
    Registry& reg = registry();
    reg.active_generation = 0;  // the parent's session goes on without this process
    reg.names.clear();
    ThreadState& t = t_state;  // the only thread the child has
    if (t.generation == kThreadExited) {
        return;
    }
    if (t.record != nullptr) {
        t.record->current.store(nullptr, std::memory_order_release);
    }
    delete t.chunk;  // the child's copy; the parent still has its own
    t.chunk = nullptr;
    t.depth = 0;
    t.regions = 0;
    t.generation = 0;  // scopes open at fork() end without a record
}

}  // namespace qprof::detail

namespace qprof {

void name_this_thread(std::string name) {
    using namespace detail;
    ThreadState& t = t_state;
    Registry& reg = registry();
    std::lock_guard lock{reg.mutex};
    if (t.generation == kThreadExited) {
        return;
    }
    ensure_thread_record(t, reg);
    cap_name(name);
    t.record->name = std::move(name);
    if (t.generation != 0 && t.generation == reg.active_generation &&
        t.record->generation == t.generation) {
        reg.names[t.record->index] = t.record->name;
    }
}

}  // namespace qprof
