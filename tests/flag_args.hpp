// The flag tests' argv (flags_test.cpp, flags_selection_test.cpp): words made into a mutable
// argv as main() receives it, parsed, or the error they give.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace qprof::test {

// A mutable argv built from words, as main() receives it.
struct Args {
    explicit Args(std::vector<std::string> words) : storage(std::move(words)) {
        storage.insert(storage.begin(), "prog");
        for (std::string& word : storage) {
            argv.push_back(word.data());
        }
        argv.push_back(nullptr);
        argc = static_cast<int>(storage.size());
    }
    std::vector<std::string> remaining() const {
        REQUIRE(argv[static_cast<std::size_t>(argc)] == nullptr);
        return std::vector<std::string>(argv.begin() + 1, argv.begin() + argc);
    }
    std::vector<std::string> storage;
    std::vector<char*> argv;
    int argc;
};

inline qprof::SessionOptions parse(Args& args, const char* env = nullptr) {
    return qprof::parse_flags(args.argc, args.argv.data(), env);
}

inline std::string error_of(std::vector<std::string> words, const char* env = nullptr) {
    Args args{std::move(words)};
    try {
        parse(args, env);
    } catch (const qprof::FlagError& error) {
        return error.what();
    }
    return "<no error>";
}

}  // namespace qprof::test
