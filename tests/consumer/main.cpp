// A program outside the qprof tree, built against an installed qprof (pkg-config) or qprof
// as a Meson subproject. tests/consumer/check runs it and checks the counts report.
#include <qprof/qprof.hpp>

#include <cstdio>
#include <map>

namespace {

std::map<int, long> fib_cache;

// Memoized: fib(0..20) each run once (21 misses), and every fib(n - 2) asked by fib(n) for
// n >= 3 is answered by the cache (18 hits), so the counts report says fib,39,...
long fib(int n) {
    if (auto it = fib_cache.find(n); it != fib_cache.end()) {
        PROFILE_QUERY_HIT(fib, n);
        return it->second;
    }
    PROFILE_QUERY(fib, n);
    const long value = n < 2 ? n : fib(n - 1) + fib(n - 2);
    fib_cache.emplace(n, value);
    return value;
}

}  // namespace

int main(int argc, char** argv) {
    qprof::Session session{argc, argv};
    PROFILE_ACTIVITY("consumer");
    const long value = fib(20);
    std::printf("fib(20) = %ld\n", value);
    return value == 6765 ? 0 : 1;
}
