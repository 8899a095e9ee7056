// A program that ends abnormally, in the way named by its first argument, after recording
// 100 `before_end` scopes with a hit in each: what of its profile survives is documented.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <qprof/qprof.hpp>
#include <stdexcept>
#include <string>

// NOLINTNEXTLINE(bugprone-exception-escape): "throw" leaves main by an exception on purpose
int main(int argc, char** argv) {
    qprof::Session session{argc, argv};
    const std::string how = argc > 1 ? argv[1] : "";
    for (int i = 0; i < 100; ++i) {
        PROFILE_QUERY(before_end);
        PROFILE_QUERY_HIT(inside);
    }
    PROFILE_QUERY(open_at_the_end);
    if (how == "throw") {
        throw std::runtime_error("leaves main");
    } else if (how == "terminate") {
        std::terminate();
    } else if (how == "quick_exit") {
        std::quick_exit(4);
    } else if (how == "abort") {
        std::abort();
    } else if (how == "sigint") {
        ::kill(::getpid(), SIGINT);
    } else if (how == "sigterm") {
        ::kill(::getpid(), SIGTERM);
    } else if (how == "sigkill") {
        ::sleep(3);  // long enough for the periodic flush, however loaded the machine
        ::kill(::getpid(), SIGKILL);
    }
    ::sleep(30);  // a signal that did not end the program: the test's timeout says so
    return 9;
}
