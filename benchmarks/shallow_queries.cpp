// A shallow, hit-heavy query workload shaped like a build tool's dependency scan, for
// measuring what qprof costs a real program end to end (benchmarks/end_to_end.py runs it).
//
//   $ shallow_queries [--nodes N] [--root DIR] [--idle-thread] [-Z profile-queries...]
//
// N nodes (default 40,000), each depending on three earlier ones. The scan asks whether
// every node is dirty; a node that is asked for the first time does about 1.8 µs of work
// and asks for its dependencies (`dirty`, keyed by an aggregate NodeId) and their
// modification times (`mtime`, keyed by the path as a std::string), each memoized in a
// hand-written table as real programs do. That gives about 7 events per node, three quarters
// of them cache hits, and about 0.4 µs of work per event. Paths are about 25 chars, which keys
// record as their chars; --root puts them under a directory: longer ones, kept as their chars in
// 128 bytes up to 127 chars, and past that as a count of chars and the chars. Built twice:
// instrumented (`shallow_queries`) and with every macro compiled out (`shallow_queries_off`).
//
// It prints how long the session took to finish (the end of the run) on stdout.
//
// --idle-thread starts a thread that only waits for the end: what a second thread alone costs
// the program, such as the collector's. glibc's malloc takes locks and atomic operations in a
// process that has ever had a second thread (its single-thread fast path is gone), and this
// scan allocates a string for each lookup.
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <iostream>
#include <qprof/qprof.hpp>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

struct NodeId {
    std::uint32_t graph;
    std::uint32_t index;
};

constexpr int kDeps = 3;
constexpr int kDirtyWork = 1400;  // iterations of work(): about 1.8 µs
constexpr int kMtimeWork = 400;   // about 0.5 µs

// Work the optimiser cannot drop: a chain of dependent multiply-adds.
std::uint64_t work(std::uint64_t seed, int iterations) {
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

struct Arguments {
    std::uint32_t nodes = 40'000;
    std::string root;  // a directory before every path, ending in '/'
    bool idle_thread = false;
};

Arguments parse_arguments(int argc, char** argv) {
    Arguments arguments;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--nodes") == 0 && i + 1 < argc) {
            arguments.nodes = static_cast<std::uint32_t>(std::strtoul(argv[++i], nullptr, 10));
        } else if (std::strcmp(argv[i], "--root") == 0 && i + 1 < argc) {
            arguments.root = argv[++i];
        } else if (std::strcmp(argv[i], "--idle-thread") == 0) {
            arguments.idle_thread = true;
        } else {
            std::cerr << "shallow_queries: unknown argument '" << argv[i]
                      << "'; usage: shallow_queries [--nodes N] [--root DIR] [--idle-thread] "
                         "[-Z qprof flags]\n";
            std::exit(2);
        }
    }
    return arguments;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        qprof::Session session{argc, argv};
        const Arguments arguments = parse_arguments(argc, argv);
        std::promise<void> done;
        std::thread idle;
        if (arguments.idle_thread) {
            idle = std::thread{[ended = done.get_future()] { ended.wait(); }};
        }
        {
            Scan scan{arguments.nodes, arguments.root};
            std::uint32_t dirty = 0;
            for (std::uint32_t i = 0; i < scan.size(); ++i) {
                dirty += scan.dirty(NodeId{1, i}) ? 1 : 0;
            }
            std::printf("shallow_queries: %" PRIu32 " of %" PRIu32 " nodes dirty\n", dirty,
                        scan.size());
        }
        if (idle.joinable()) {
            done.set_value();
            idle.join();
        }
        // The end of the run timed alone (the trace's completion and the reports), which
        // end_to_end.py reports per event: the whole process's time varies more than it.
        const auto finish_start = std::chrono::steady_clock::now();
        session.finish();
        const std::chrono::duration<double, std::milli> finish_time =
            std::chrono::steady_clock::now() - finish_start;
        std::printf("shallow_queries: the session finished in %.3f ms\n", finish_time.count());
    } catch (const qprof::SessionError& error) {
        std::cerr << error.what() << '\n';
        return 2;
    }
    return 0;
}
