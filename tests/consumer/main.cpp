// A program outside the qprof tree, built against an installed qprof (pkg-config) or qprof
// as a Meson subproject. tests/consumer/check runs it and checks the counts report.
#include <cstdio>
#include <map>
#include <qprof/qprof.hpp>
#include <qprof/query.hpp>

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

struct Point {  // an aggregate key: no hash, no ==, thanks to Boost.PFR
    int x;
    int y;
};

int main(int argc, char** argv) {
    qprof::Session session{argc, argv};
    PROFILE_ACTIVITY("consumer");
    const long value = fib(20);
    // A memoized query: one miss, then one hit, so the counts report says norm,2,...
    qprof::Query<Point, long> norm{"norm",
                                   [](const Point& p) { return long{p.x} * p.x + p.y * p.y; }};
    const long norms = norm(Point{3, 4}) + norm(Point{3, 4});
    std::printf("fib(20) = %ld, norms = %ld\n", value, norms);
    return value == 6765 && norms == 50 ? 0 : 1;
}
