// The key of most toyc queries: an item of the program being compiled or of its "std" crate.
#pragma once

#include <cstdint>
#include <ostream>

#include "hashing.hpp"

namespace toyc {

// As in rustc, an item is named by its crate and its index within that crate, so that items
// of a dependency (read from its "metadata") and local items share one key type.
struct DefId {
    std::uint32_t krate;
    std::uint32_t index;

    friend bool operator==(DefId, DefId) = default;
    // Key formatting for -Z profile-queries-and-keys and for debugging.
    friend std::ostream& operator<<(std::ostream& out, DefId id) {
        return out << "DefId(" << id.krate << ':' << id.index << ')';
    }
};

inline constexpr std::uint32_t kLocalCrate = 0;
inline constexpr std::uint32_t kStdCrate = 1;

constexpr DefId local_item(std::uint32_t index) { return DefId{kLocalCrate, index}; }
constexpr DefId std_item(std::uint32_t index) { return DefId{kStdCrate, index}; }

struct DefIdHash {
    std::size_t operator()(DefId id) const {
        return static_cast<std::size_t>(mix(std::uint64_t{id.krate} << 32 | id.index));
    }
};

}  // namespace toyc
