// The payload's key column (html_payload_layout.hpp, KeyCode): each node's key told from the
// keys around it, thread after thread in pre-order. One walk serves both ways, so that what
// html_columns.cpp writes and what the tests read back follow the same rules; the viewer's
// twin is keyDecoder in reporters/html/payload.js.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qprof::detail::html {

class KeyCodes {
  public:
    // `key_count`: the keys' texts (Trace::key_texts), which a key indexes from 1. Without
    // `hit_keys`, a hit's key is left out (layout::kKeyLeftOut).
    KeyCodes(std::size_t key_count, bool hit_keys);

    // Before a thread's first node: its walk starts at its roots.
    void start_thread();
    // The code of the next node in pre-order: its key (0 for none), whether it is a hit, and
    // the node count of its subtree, itself included.
    std::uint64_t encode(std::uint32_t key, bool hit, std::uint32_t size);
    // The key of the next node from its code (0 for none or left out), or kNoSuchKey when
    // the code names a key the page does not have (a corrupt column).
    static constexpr std::uint32_t kNoSuchKey = 0xffffffff;
    std::uint32_t decode(std::uint64_t code, std::uint32_t size);

    // Hits whose key was left out, and hits whose key was coded.
    std::uint64_t hits_left_out() const { return hits_left_out_; }
    std::uint64_t hit_keys() const { return hit_keys_coded_; }

  private:
    struct Open {
        std::uint32_t end;       // the node after its subtree, as counted by the walk
        std::uint32_t key;       // its key as the page holds it
        std::uint32_t previous;  // its last child's key so far
    };
    // Where node `next_` stands: its parent's key, and the key of the sibling before it.
    std::uint32_t parent_key();
    std::uint32_t& previous_key();
    // What the node just coded, of `size` nodes and keyed `key` on the page, teaches.
    void learn(std::uint32_t key, std::uint32_t size);

    bool hit_keys_;
    std::vector<std::uint32_t> following_;  // by key: the key of its next sibling last time
    std::uint32_t newest_ = 0;
    std::vector<Open> open_;
    std::uint32_t next_ = 0;  // the node's index in its thread
    std::uint32_t previous_root_ = 0;
    std::uint64_t hits_left_out_ = 0;
    std::uint64_t hit_keys_coded_ = 0;
};

}  // namespace qprof::detail::html
