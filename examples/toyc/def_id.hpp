// The key of most toyc queries: an item of the program being compiled or of its "std" crate.
#pragma once

#include <cstdint>

namespace toyc {

// As in rustc, an item is named by its crate and its index within that crate, so that items
// of a dependency (read from its "metadata") and local items share one key type.
//
// A plain aggregate: qprof hashes, compares and prints it field by field (as DefId{0, 42}),
// so it needs no std::hash, == or << of its own.
struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

inline constexpr std::uint32_t kLocalCrate = 0;
inline constexpr std::uint32_t kStdCrate = 1;

constexpr DefId local_item(std::uint32_t index) { return DefId{kLocalCrate, index}; }
constexpr DefId std_item(std::uint32_t index) { return DefId{kStdCrate, index}; }

}  // namespace toyc
