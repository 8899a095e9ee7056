// A program built with -fno-exceptions -fno-rtti, as many compilers and build tools are: it
// starts its session with Session::from_args, which reports a bad flag as text instead of
// throwing (tests/consumer/check no-exceptions runs it with good and bad flags). The macros
// need no exceptions; qprof::Query does (a dependency cycle is a CycleError), so it is not here.
#include <cstdio>
#include <map>
#include <qprof/qprof.hpp>

namespace {

std::map<int, long> fib_cache;

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
    qprof::SessionStart start = qprof::Session::from_args(argc, argv);
    if (!start) {
        if (!start.error.empty()) {
            std::fprintf(stderr, "%s\n", start.error.c_str());
        }
        return start.help_shown ? 0 : 2;
    }
    PROFILE_ACTIVITY("consumer");
    const long value = fib(20);
    std::printf("fib(20) = %ld\n", value);
    return value == 6765 ? 0 : 1;
}
