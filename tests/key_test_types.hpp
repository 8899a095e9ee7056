// Keys the tests of key interning share (key_interning_test.cpp and
// key_interning_strings_test.cpp): each file gets its own copy of them, in an unnamed namespace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <qprof/qprof.hpp>
#include <string>

#include "test_support.hpp"

namespace {

// Owns its value (so it is interned) and every key of it has the same hash.
struct Colliding {
    std::string name;
    bool operator==(const Colliding&) const = default;
};

// Counts how many times keys of it are formatted.
struct Counted {
    std::string name;
};
int g_counted_formats = 0;

}  // namespace

template <>
struct std::hash<Colliding> {
    std::size_t operator()(const Colliding&) const { return 42; }
};

template <>
struct qprof::KeyFormatter<Counted> {
    static void format(std::string& out, const Counted& counted) {
        ++g_counted_formats;
        out += counted.name;
    }
};

namespace {

// An aggregate without operator==: compared field by field.
struct Located {
    std::string path;
    std::uint32_t line;
};

qprof::SessionOptions options_with_keys() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    return options;
}

}  // namespace
