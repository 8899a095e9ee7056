// A shallow, hit-heavy query workload shaped like a build tool's dependency scan, for
// measuring what qprof costs a real program end to end (benchmarks/end_to_end.py runs it).
//
//   $ shallow_queries [--nodes N] [--root DIR] [--idle-thread] [-Z profile-queries...]
//
// N nodes (default 40,000), the scan of shallow_scan.hpp: about 7 events per node, three
// quarters of them cache hits, about 0.4 µs of work per event. Paths are about 25 chars, which
// keys record as their chars; --root puts them under a directory: longer ones, kept as their
// chars in 128 bytes up to 127 chars, and past that as a count of chars and the chars. Built three
// times: instrumented (`shallow_queries`), with every macro compiled out (`shallow_queries_off`),
// and compiled out with two clock reads around each provider run (`shallow_queries_clock`).
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

#include "shallow_scan.hpp"

namespace {

using qprof::bench::NodeId;
using qprof::bench::Scan;

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
