// A program shaped like a language server whose threads wait for each other, for the browser
// test of what a wait waited for (tests/browser/waits.spec.mjs). A worker checks the slow
// file "slow.cc" (kSlow, 60 ms) at its top level; the main thread, inside its pass
// "analysis", asks for the same file while the worker computes it, so it waits for the
// worker's run (a qprof::Query blocked wait), checks two quick files, then joins the worker
// in a PROFILE_WAIT scope. Every check parses its file first, so a run has a child; one file
// is named in more than ASCII, "bé.cc". With --extra-threads N, N more threads start and end
// one after the other, each with a query: more than the page's thread selector lists, the
// last the least busy, with a query of its own ("last_extra").
//
//   waiting_threads [--extra-threads N] [-Z profile-queries-and-keys=html ...]
#include <atomic>
#include <chrono>
#include <exception>
#include <iostream>
#include <qprof/qprof.hpp>
#include <qprof/query.hpp>
#include <string>
#include <thread>

namespace {

constexpr auto kSlow = std::chrono::milliseconds(60);

// Work the optimiser cannot drop.
std::size_t spin(std::size_t seed) {
    for (int i = 0; i < 20'000; ++i) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
    }
    return seed;
}

// The program; main reports what it throws.
int run(int argc, char** argv) {
    qprof::Session session{argc, argv};
    if (session.help_shown()) {
        return 0;
    }
    std::atomic<bool> slow_started{false};
    qprof::Query<std::string, std::size_t> parse{
        "parse", [](const std::string& file) { return spin(file.size()); }};
    qprof::Query<std::string, std::size_t> check{"check", [&](const std::string& file) {
                                                     std::size_t result = parse(file);
                                                     if (file == "slow.cc") {
                                                         slow_started = true;
                                                         std::this_thread::sleep_for(kSlow);
                                                     }
                                                     return result;
                                                 }};
    std::size_t sum = 0;
    {
        PROFILE_ACTIVITY("analysis");
        std::thread worker{[&] {
            qprof::name_this_thread("worker");
            check("slow.cc");
            check("bé.cc");
        }};
        while (!slow_started) {
            std::this_thread::yield();
        }
        sum += check("slow.cc");  // the worker is computing it: this thread waits
        sum += check("a.cc");
        {
            PROFILE_WAIT("join worker");
            worker.join();
        }
        sum += check("bé.cc");  // a hit
    }
    const int extra =
        argc == 3 && std::string{argv[1]} == "--extra-threads" ? std::stoi(argv[2]) : 0;
    for (int t = 0; t < extra; ++t) {
        std::thread{[t, extra, &sum] {
            qprof::name_this_thread("extra " + std::to_string(t));
            if (t + 1 < extra) {
                PROFILE_QUERY(extra_work, t);
                sum += spin(static_cast<std::size_t>(t));
            } else {
                PROFILE_QUERY(last_extra, t);  // no work: the least busy thread
            }
        }}.join();
    }
    return sum == 42 ? 1 : 0;  // uses the sum
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& error) {  // a bad -Z flag, a thread that could not start
        std::cerr << "waiting_threads: " << error.what() << '\n';
        return 2;
    }
}
