// A program that calls exit() with scopes open: its profile must still be written.
#include <cstdlib>
#include <qprof/qprof.hpp>

int main(int argc, char** argv) {
    qprof::Session session{argc, argv};
    PROFILE_ACTIVITY("main pass");
    { PROFILE_QUERY(done_before_exit); }
    PROFILE_QUERY(calls_exit);
    std::exit(3);
}
