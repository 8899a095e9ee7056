// Base64 (RFC 4648, with padding) written as bytes come, for binary data in a text page.
//
//   Base64Writer text{out};
//   text.write(bytes);   // as often as needed
//   text.finish();
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string_view>

namespace qprof::detail {

class Base64Writer {
  public:
    explicit Base64Writer(std::ostream& out) : out_(out) {}
    void write(std::string_view bytes);
    void finish();  // the last group, padded

  private:
    // Groups of 3 bytes encoded into text_ at a time, then written out.
    static constexpr std::size_t kGroups = 4096;

    // `groups` whole groups of 3 bytes from `data` to out_.
    void put_groups(const unsigned char* data, std::size_t groups);

    std::ostream& out_;
    std::array<unsigned char, 3> pending_{};  // fewer than 3 bytes not yet written
    std::size_t pending_size_ = 0;
    // On the heap: the thread that ends a session may have a small stack.
    std::unique_ptr<char[]> text_ = std::make_unique_for_overwrite<char[]>(4 * kGroups);
};

}  // namespace qprof::detail
