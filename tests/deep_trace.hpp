// Traces and saved streams of one very deep chain of queries, for the tests that no reporter,
// nor the reader, walks the tree by recursion or keeps a copy of each stack.
#pragma once

#include <cstdint>
#include <qprof/trace.hpp>
#include <string>

namespace qprof::test {

// One thread, "main", holding a chain of `depth` nested misses alternating between the
// providers "f" and "g"; the node at depth d runs from d to 2 * depth - d nanoseconds, so
// every node has 2 ns of self time.
Trace deep_chain_trace(std::uint32_t depth);

// The same chain as a complete, checksummed raw stream (manual clock, one tick a
// nanosecond), as a program would have written it: what `qprof` reads.
std::string deep_chain_stream(std::uint32_t depth);

}  // namespace qprof::test
