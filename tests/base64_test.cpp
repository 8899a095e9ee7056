// Base64Writer (reporters/base64.cpp): RFC 4648's examples, and every length of random bytes
// written whole and in pieces of every size up to a few groups, against a plain encoder that
// takes the bits six at a time.
#include "base64.hpp"

#include <catch2/catch.hpp>
#include <cstddef>
#include <random>
#include <sstream>
#include <string>
#include <string_view>

namespace {

std::string encoded(std::string_view bytes, std::size_t piece) {
    std::ostringstream out;
    qprof::detail::Base64Writer text{out};
    for (std::size_t at = 0; at < bytes.size(); at += piece) {
        text.write(bytes.substr(at, piece));
    }
    text.write({});
    text.finish();
    return out.str();
}

// Six bits at a time from the first byte's highest, '=' for each missing byte of the last group.
std::string reference(std::string_view bytes) {
    static constexpr std::string_view kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string text;
    const std::size_t bits = 8 * bytes.size();
    for (std::size_t at = 0; at < bits; at += 6) {
        unsigned value = 0;
        for (std::size_t bit = at; bit < at + 6; ++bit) {
            const bool set = bit < bits &&
                             (static_cast<unsigned char>(bytes[bit / 8]) >> (7 - bit % 8) & 1) != 0;
            value = value << 1 | (set ? 1 : 0);
        }
        text += kAlphabet[value];
    }
    text.append((4 - text.size() % 4) % 4, '=');
    return text;
}

}  // namespace

TEST_CASE("base64: RFC 4648's examples") {
    CHECK(encoded("", 1).empty());
    CHECK(encoded("f", 1) == "Zg==");
    CHECK(encoded("fo", 1) == "Zm8=");
    CHECK(encoded("foo", 1) == "Zm9v");
    CHECK(encoded("foob", 1) == "Zm9vYg==");
    CHECK(encoded("fooba", 2) == "Zm9vYmE=");
    CHECK(encoded("foobar", 4) == "Zm9vYmFy");
}

TEST_CASE("base64: random bytes of every length, whole and in pieces, as the plain encoder") {
    std::mt19937 random{5};
    std::string bytes(40'000, '\0');
    for (char& byte : bytes) {
        byte = static_cast<char>(random());
    }
    for (std::size_t size = 0; size <= 64; ++size) {
        const std::string_view some = std::string_view{bytes}.substr(0, size);
        const std::string expected = reference(some);
        for (std::size_t piece = 1; piece <= 10; ++piece) {
            INFO(size << " bytes in pieces of " << piece);
            CHECK(encoded(some, piece) == expected);
        }
    }
    // Past one buffer of groups (4,096 of them: 12,288 bytes), in pieces that split groups.
    const std::string expected = reference(bytes);
    for (const std::size_t piece :
         {std::size_t{1}, std::size_t{4'097}, std::size_t{12'289}, bytes.size()}) {
        INFO("pieces of " << piece);
        CHECK(encoded(bytes, piece) == expected);
    }
}
