// The scan of shallow_queries: a build tool's dependency scan, shallow and hit-heavy, in one
// class so that a benchmark can record the same trace in its own process
// (html_parts_benchmark.cpp) as the program records it run as a process (shallow_queries.cpp).
//
//   Scan scan{40'000, ""};
//   for (std::uint32_t i = 0; i < scan.size(); ++i) scan.dirty(NodeId{1, i});
//
// N nodes, each depending on three earlier ones. The scan asks whether every node is dirty; a
// node that is asked for the first time does about 1.8 µs of work and asks for its
// dependencies (`dirty`, keyed by an aggregate NodeId) and their modification times (`mtime`,
// keyed by the path as a std::string), each memoized in a hand-written table as real programs
// do. That gives about 7 events per node, three quarters of them cache hits, and about 0.4 µs
// of work per event. Paths are about 25 chars under `root`.
//
// Built with QPROF_BENCH_CLOCK_READS=1 (and every macro compiled out: shallow_queries_clock), each
// provider run reads the clock at its start and at its end, as a recording scope does, and
// nothing else: what timing every run costs this program before any profiler's work.
#pragma once

#include <cstdint>
#include <qprof/detail/clock.hpp>
#include <qprof/qprof.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace qprof::bench {

struct NodeId {
    std::uint32_t graph;
    std::uint32_t index;
};

#if defined(QPROF_BENCH_CLOCK_READS) && QPROF_BENCH_CLOCK_READS
// The two clock reads of a timed scope, kept where the optimiser cannot drop them.
inline std::uint64_t g_ticks_timed = 0;
struct ClockReads {
    std::uint64_t start = qprof::detail::read_tsc();
    ~ClockReads() { g_ticks_timed += qprof::detail::read_tsc() - start; }
};
#define SCAN_CLOCK_READS() const ::qprof::bench::ClockReads scan_clock_reads
#else
#define SCAN_CLOCK_READS() static_cast<void>(0)
#endif

inline constexpr int kDeps = 3;
inline constexpr int kDirtyWork = 1400;  // iterations of work(): about 1.8 µs
inline constexpr int kMtimeWork = 400;   // about 0.5 µs

// Work the optimiser cannot drop: a chain of dependent multiply-adds.
inline std::uint64_t work(std::uint64_t seed, int iterations) {
    for (int i = 0; i < iterations; ++i) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
    }
    return seed;
}

class Scan {
  public:
    Scan(std::uint32_t nodes, const std::string& root) : deps_(nodes), paths_(nodes) {
        std::uint64_t random = 0x5eed;
        for (std::uint32_t i = 0; i < nodes; ++i) {
            paths_[i] =
                root + "src/module" + std::to_string(i / 64) + "/file" + std::to_string(i) + ".cc";
            for (int d = 0; d < kDeps && i > 0; ++d) {
                random = random * 6364136223846793005u + 1;
                deps_[i].push_back(static_cast<std::uint32_t>((random >> 33) % i));
            }
        }
    }

    bool dirty(NodeId id) {
        if (auto it = dirty_.find(id.index); it != dirty_.end()) {
            PROFILE_QUERY_HIT(dirty, id);
            return it->second;
        }
        PROFILE_QUERY(dirty, id);
        SCAN_CLOCK_READS();
        std::uint64_t state = work(id.index, kDirtyWork);
        for (std::uint32_t dep : deps_[id.index]) {
            state ^= static_cast<std::uint64_t>(dirty(NodeId{id.graph, dep}));
            state ^= mtime(paths_[dep]);
        }
        const bool result = (state & 7) == 0;
        dirty_.emplace(id.index, result);
        return result;
    }

    std::uint64_t mtime(const std::string& path) {
        if (auto it = mtimes_.find(path); it != mtimes_.end()) {
            PROFILE_QUERY_HIT(mtime, path);
            return it->second;
        }
        PROFILE_QUERY(mtime, path);
        SCAN_CLOCK_READS();
        const std::uint64_t value = work(path.size(), kMtimeWork);
        mtimes_.emplace(path, value);
        return value;
    }

    std::uint32_t size() const { return static_cast<std::uint32_t>(deps_.size()); }

  private:
    std::vector<std::vector<std::uint32_t>> deps_;
    std::vector<std::string> paths_;
    std::unordered_map<std::uint32_t, bool> dirty_;
    std::unordered_map<std::string, std::uint64_t> mtimes_;
};

}  // namespace qprof::bench
