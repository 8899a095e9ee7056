// Base64 (RFC 4648, with padding) written as bytes come, for binary data in a text page.
//
//   Base64Writer text{out};
//   text.write(bytes);   // as often as needed
//   text.finish();
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace qprof::detail {

class Base64Writer {
  public:
    explicit Base64Writer(std::ostream& out) : out_(out) {}
    void write(std::string_view bytes);
    void finish();  // the last group, padded

  private:
    std::ostream& out_;
    std::string pending_;  // fewer than 3 bytes not yet written
    std::string text_;
};

}  // namespace qprof::detail
