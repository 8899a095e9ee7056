// How chunks travel between writer threads and the collector (not installed): full chunks on
// a queue to the collector, empty ones back on a free list for the next writer to take.
#pragma once

#include <cstddef>
#include <cstdint>
#include <qprof/detail/recorder.hpp>

namespace qprof::detail {

// A free chunk, or a new one when none is free.
Chunk* take_free_chunk();

// Keeps `chunk` for reuse, or deletes it when enough are kept.
void give_back_chunk(Chunk* chunk);

// Queues `chunk` for the collector; waits while the collector is a gigabyte behind.
void send_full_chunk(Chunk* chunk);

// Readies `chunk` for a writer: empty, stamped with its session and thread.
void prepare_chunk(Chunk* chunk, std::uint32_t generation, std::uint32_t thread);

// Puts `count` new chunks on the free list, so the first writers allocate none.
void stock_free_chunks(std::size_t count);

// Deletes every free chunk: the memory goes back once the session is over.
void release_free_chunks();

// For fork(): the two lists' locks, taken after the thread registry's (recorder.cpp).
void lock_chunk_lists_for_fork();
void unlock_chunk_lists_after_fork();

}  // namespace qprof::detail
