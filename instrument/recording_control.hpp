// The session's side of the recorder (not installed): start and stop recording, and take
// the chunks the threads filled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <qprof/detail/clock.hpp>
#include <qprof/detail/event_selection.hpp>
#include <qprof/detail/recorder.hpp>
#include <string>
#include <vector>

namespace qprof::detail {

struct RecordingStart {
    std::uint32_t generation;  // never 0
    std::uint64_t tick;        // the clock when recording began
    std::uint64_t steady_ns;   // steady_clock at the same moment, for calibrating the TSC
};

// Starts recording for a new session, of the events chosen. Throws std::logic_error when another
// session is recording: sessions do not overlap. With `record_memory`, allocations are counted
// (by the hook, alloc_counter.hpp) and every scope records what it allocated.
RecordingStart begin_recording(ClockKind clock, bool record_keys, bool record_memory,
                               const EventSelection& events);

// No new event starts after this, and allocations are no longer counted; scopes already open
// may still write into their chunk.
void stop_recording();

// Lets the next session begin.
void end_recording();

bool pop_full_chunk(Chunk*& chunk);
void recycle_chunk(Chunk* chunk);

// The collector's wake-up: a writer that leaves kWakeChunks full chunks waiting wakes it, so
// that a burst of events is read while the program runs rather than all at the session's end.
// Take the signal before looking for work, then wait for it to change: a wake in between is
// not lost.
inline constexpr std::size_t kWakeChunks = 4;
std::uint32_t collector_signal();
// Returns when the signal is no longer `seen`, after `timeout_ns` at most, or spuriously.
void wait_for_collector_signal(std::uint32_t seen, std::int64_t timeout_ns);
void wake_collector();

// Calls fn(thread index, current chunk) for every live thread that joined `generation`,
// holding the thread registry so that no thread exits meanwhile.
void for_each_live_thread(std::uint32_t generation,
                          const std::function<void(std::uint32_t, Chunk*)>& fn);

// The names of the threads that joined `generation`, by thread index, from index `first` on
// (the collector fetches only those it has not seen: a copy of every name for each new thread
// was quadratic in the threads, under the registry's lock that starting threads wait for).
std::vector<std::string> thread_names(std::uint32_t generation, std::uint32_t first = 0);

// Records the scopes open on the calling thread as unfinished, ending at `end_tick` (the
// innermost kOpenFrames of them; deeper ones cannot be named). Call while recording.
void close_open_scopes(std::uint64_t end_tick);

}  // namespace qprof::detail
