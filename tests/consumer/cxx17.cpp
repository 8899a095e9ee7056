// A C++17 program that includes qprof: it must not compile, and the compiler must say, in one
// error, that qprof needs C++20 and how to ask for it (tests/consumer/check cxx17).
#include <qprof/qprof.hpp>
#include <qprof/query.hpp>

int main() { return 0; }
