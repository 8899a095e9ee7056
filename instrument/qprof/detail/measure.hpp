// Sizes and counters: numbers the program reports, beside the queries it runs.
//
//   qprof::record_size("object file", bytes);  // summed per name: a table in summarize and html
//   qprof::counter("live nodes", nodes.size()); // a time series per thread: timeline, Chrome trace
//
// Each call records one record in the thread's chunk while a session records (a size: 16
// bytes; a counter: 24 bytes and a clock read), and costs one predictable branch otherwise. The
// name is kept by its address, as a region's (region.hpp): pass a string literal or a name from
// a table that lives as long as the program. After a thread's first use of a name, a call
// takes no lock and allocates nothing.
#pragma once

#include <cstdint>
#include <qprof/detail/recorder.hpp>

namespace qprof::detail {

// Out of line, on a thread attached to the recording session: the records themselves.
void write_size(ThreadState& t, const char* name, std::uint64_t bytes, const char* file,
                std::uint32_t line);
void write_counter(ThreadState& t, const char* name, std::int64_t value, const char* file,
                   std::uint32_t line);

// `file` and `line`: the call site, which the name's first use gives its site.
inline void record_size(const char* name, std::uint64_t bytes, const char* file = __builtin_FILE(),
                        std::uint32_t line = __builtin_LINE()) {
    if (ThreadState* t = recording_thread()) {
        write_size(*t, name, bytes, file, line);
    }
}

inline void counter(const char* name, std::int64_t value, const char* file = __builtin_FILE(),
                    std::uint32_t line = __builtin_LINE()) {
    if (ThreadState* t = recording_thread()) {
        write_counter(*t, name, value, file, line);
    }
}

}  // namespace qprof::detail
