#include "base64.hpp"

#include <cstdint>

namespace qprof::detail {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Writes the four characters of three bytes at `text`.
void put_group(char* text, const unsigned char* bytes) {
    const std::uint32_t group =
        std::uint32_t{bytes[0]} << 16 | std::uint32_t{bytes[1]} << 8 | bytes[2];
    text[0] = kAlphabet[group >> 18];
    text[1] = kAlphabet[(group >> 12) & 63];
    text[2] = kAlphabet[(group >> 6) & 63];
    text[3] = kAlphabet[group & 63];
}

}  // namespace

void Base64Writer::write(std::string_view bytes) {
    pending_.append(bytes);
    const std::size_t whole = pending_.size() / 3 * 3;
    text_.resize(whole / 3 * 4);
    const auto* data = reinterpret_cast<const unsigned char*>(pending_.data());
    for (std::size_t at = 0; at < whole; at += 3) {
        put_group(text_.data() + at / 3 * 4, data + at);
    }
    out_ << text_;
    pending_.erase(0, whole);
}

void Base64Writer::finish() {
    if (pending_.empty()) {
        return;
    }
    const std::size_t size = pending_.size();
    unsigned char last[3] = {};
    for (std::size_t i = 0; i < size; ++i) {
        last[i] = static_cast<unsigned char>(pending_[i]);
    }
    text_.resize(4);
    put_group(text_.data(), last);
    text_.replace(size + 1, 3 - size, 3 - size, '=');
    out_ << text_;
    pending_.clear();
}

}  // namespace qprof::detail
