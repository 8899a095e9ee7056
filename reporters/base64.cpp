#include "base64.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace qprof::detail {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The two characters of every 12 bits: a group of 3 bytes is two lookups instead of four.
constexpr std::array<std::array<char, 2>, 4096> kPairs = [] {
    std::array<std::array<char, 2>, 4096> pairs{};
    for (std::size_t bits = 0; bits < pairs.size(); ++bits) {
        pairs[bits] = {kAlphabet[bits >> 6], kAlphabet[bits & 63]};
    }
    return pairs;
}();

// Writes the four characters of three bytes at `text`.
void put_group(char* text, const unsigned char* bytes) {
    const std::uint32_t group =
        std::uint32_t{bytes[0]} << 16 | std::uint32_t{bytes[1]} << 8 | bytes[2];
    std::memcpy(text, kPairs[group >> 12].data(), 2);
    std::memcpy(text + 2, kPairs[group & 4095].data(), 2);
}

}  // namespace

void Base64Writer::put_groups(const unsigned char* data, std::size_t groups) {
    while (groups > 0) {
        const std::size_t now = std::min(groups, kGroups);
        for (std::size_t g = 0; g < now; ++g) {
            put_group(text_.get() + 4 * g, data + 3 * g);
        }
        out_.write(text_.get(), static_cast<std::streamsize>(4 * now));
        data += 3 * now;
        groups -= now;
    }
}

void Base64Writer::write(std::string_view bytes) {
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t size = bytes.size();
    if (size == 0) {
        return;
    }
    if (pending_size_ > 0) {  // the group begun by the last write, completed first
        const std::size_t taken = std::min(size, 3 - pending_size_);
        std::memcpy(pending_.data() + pending_size_, data, taken);
        pending_size_ += taken;
        data += taken;
        size -= taken;
        if (pending_size_ < 3) {
            return;
        }
        put_groups(pending_.data(), 1);
        pending_size_ = 0;
    }
    put_groups(data, size / 3);
    pending_size_ = size % 3;
    std::memcpy(pending_.data(), data + size - pending_size_, pending_size_);
}

void Base64Writer::finish() {
    if (pending_size_ == 0) {
        return;
    }
    std::array<unsigned char, 3> last{};
    std::memcpy(last.data(), pending_.data(), pending_size_);
    std::array<char, 4> text{};
    put_group(text.data(), last.data());
    std::fill(text.begin() + static_cast<std::ptrdiff_t>(pending_size_) + 1, text.end(), '=');
    out_.write(text.data(), 4);
    pending_size_ = 0;
}

}  // namespace qprof::detail
