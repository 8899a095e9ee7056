// Deterministic mixing: the fixed-seed generator of the synthetic program and the "work"
// that stands for what a real compiler's providers compute.
#pragma once

#include <cstdint>
#include <string_view>

namespace toyc {

// The finaliser of splitmix64: a cheap bijective mix, good enough for fingerprints.
constexpr std::uint64_t mix(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

constexpr std::uint64_t combine(std::uint64_t seed, std::uint64_t value) {
    return mix(seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

// FNV-1a rather than std::hash, whose values differ between standard libraries.
constexpr std::uint64_t fingerprint(std::string_view text) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    return hash;
}

// A dependent chain of mixes: CPU time that the optimiser cannot drop or reorder away,
// so the expensive providers cost real, repeatable time.
inline std::uint64_t churn(std::uint64_t state, std::uint32_t rounds) {
    for (std::uint32_t round = 0; round < rounds; ++round) {
        state = mix(state + round);
    }
    return state;
}

// splitmix64: the same seed gives the same program on every machine and compiler.
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        state_ += 0x9e3779b97f4a7c15ULL;
        return mix(state_);
    }
    // Uniform enough in [0, bound) for bound far below 2^32.
    std::uint32_t below(std::uint32_t bound) {
        return static_cast<std::uint32_t>((next() >> 32) * bound >> 32);
    }
    std::uint32_t between(std::uint32_t low, std::uint32_t high) {
        return low + below(high - low + 1);
    }
    bool chance(std::uint32_t percent) { return below(100) < percent; }

  private:
    std::uint64_t state_;
};

}  // namespace toyc
