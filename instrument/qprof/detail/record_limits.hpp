// What one session can record so that its raw stream stays one the reader accepts (the
// reader's bounds protect it from hostile files; live data is kept inside them here, at record
// time, with one warning for each limit reached).
//
//   if (depth >= kMaxRecordedDepth) [[unlikely]] { warn_limit(Limit::depth); ... }
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace qprof::detail {

// Threads one session records; later threads run unrecorded (the reader takes indices < 2^16).
inline constexpr std::uint32_t kMaxRecordedThreads = 1u << 16;
// Scopes open at once on a thread (the reader takes depths < 2^20); deeper scopes are not
// recorded, and hits inside them are recorded at the deepest recorded level.
inline constexpr std::uint32_t kMaxRecordedDepth = (1u << 20) - 1;
// Bytes of a provider name, file name or thread name (a raw block holds at most 16 MiB).
inline constexpr std::size_t kMaxNameBytes = 1u << 20;

enum class Limit { threads, depth, name };

// Says once per process and limit, on stderr, what the limit cuts and why.
void warn_limit(Limit limit);

// Cuts `name` to kMaxNameBytes, at a UTF-8 character boundary, warning once.
void cap_name(std::string& name);

}  // namespace qprof::detail
