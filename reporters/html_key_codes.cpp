#include "html_key_codes.hpp"

#include <algorithm>

#include "html_payload_layout.hpp"

namespace qprof::detail::html {

namespace {

std::uint64_t zigzag(std::int64_t value) {
    return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}

std::int64_t unzigzag(std::uint64_t value) {
    return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
}

}  // namespace

KeyCodes::KeyCodes(std::size_t key_count, bool hit_keys)
    : hit_keys_(hit_keys), following_(key_count + 1) {}

void KeyCodes::start_thread() {
    open_.clear();
    next_ = 0;
    previous_root_ = 0;
}

std::uint32_t KeyCodes::parent_key() {
    while (!open_.empty() && open_.back().end <= next_) {
        open_.pop_back();
    }
    return open_.empty() ? 0 : open_.back().key;
}

std::uint32_t& KeyCodes::previous_key() {
    return open_.empty() ? previous_root_ : open_.back().previous;
}

void KeyCodes::learn(std::uint32_t key, std::uint32_t size) {
    std::uint32_t& previous = previous_key();
    if (key != 0) {
        if (previous != 0) {
            following_[previous] = key;
        }
        newest_ = std::max(newest_, key);
    }
    previous = key;
    if (size > 1) {
        open_.push_back({next_ + size, key, 0});
    }
    ++next_;
}

std::uint64_t KeyCodes::encode(std::uint32_t key, bool hit, std::uint32_t size) {
    namespace layout = html::layout;
    const std::uint32_t parent = parent_key();
    const std::uint32_t previous = previous_key();
    std::uint64_t code = layout::kKeyNone;
    if (key != 0 && hit && !hit_keys_) {
        ++hits_left_out_;
        key = 0;
        code = layout::kKeyLeftOut;
    } else if (key != 0) {
        hit_keys_coded_ += hit ? 1 : 0;
        if (key == newest_ + 1) {
            code = layout::kKeyNewest;
        } else if (key == parent) {
            code = layout::kKeyOfParent;
        } else if (key == previous) {
            code = layout::kKeyOfPrevious;
        } else if (previous != 0 && following_[previous] == key) {
            code = layout::kKeyFollowing;
        } else {
            code = layout::kKeyExplicit + zigzag(std::int64_t{key} - (std::int64_t{newest_} + 1));
        }
    }
    learn(key, size);
    return code;
}

std::uint32_t KeyCodes::decode(std::uint64_t code, std::uint32_t size) {
    namespace layout = html::layout;
    const std::uint32_t parent = parent_key();
    const std::uint32_t previous = previous_key();
    std::int64_t key = 0;
    switch (code) {
        case layout::kKeyNone:
        case layout::kKeyLeftOut:
            break;
        case layout::kKeyNewest:
            key = std::int64_t{newest_} + 1;
            break;
        case layout::kKeyOfParent:
            key = parent;
            break;
        case layout::kKeyOfPrevious:
            key = previous;
            break;
        case layout::kKeyFollowing:
            key = previous == 0 ? 0 : following_[previous];
            break;
        default:
            key = std::int64_t{newest_} + 1 + unzigzag(code - layout::kKeyExplicit);
    }
    const bool keyed = code >= layout::kKeyNewest;
    if (keyed && (key < 1 || key >= static_cast<std::int64_t>(following_.size()))) {
        return kNoSuchKey;
    }
    learn(static_cast<std::uint32_t>(key), size);
    return static_cast<std::uint32_t>(key);
}

}  // namespace qprof::detail::html
