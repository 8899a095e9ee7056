// The payload's columns, made while the caller writes the rest of the page: they are most of
// the page's work, and the end of a run waits for them. Stored (small ones: html_parts.hpp,
// columns_method), one thread encodes them, frames them and writes them as base64. Compressed,
// one thread encodes them and another compresses them (DEFLATE, then base64) piece by piece as
// they come, so the caller waits for the longer of the two instead of their sum. In line when
// no thread can start (html_parts.hpp: allow_payload_threads). Made again, compressed and then
// without hits' keys, when they weigh the page past layout::kColumnsBudgetBytes. Used by
// html_reporter.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

#include "html_parts.hpp"

namespace qprof::detail::html {

class PayloadPipeline;

class PayloadText {
  public:
    // Starts making the columns; the threads only read `trace`, `orders` and `important`,
    // which must outlive this.
    PayloadText(const Trace& trace, const std::vector<Preorder>& orders,
                const Importance& important);
    ~PayloadText();
    PayloadText(const PayloadText&) = delete;
    PayloadText& operator=(const PayloadText&) = delete;

    // Writes the columns' text to `out` once they are made; returns their sizes.
    const PayloadColumns& write(std::ostream& out);

  private:
    // The room made for the columns' text before it is written: what it takes, stored, or
    // a little more; nothing for compressed columns.
    std::uint64_t text_room() const;

    const Trace& trace_;
    const std::vector<Preorder>& orders_;
    const Importance& important_;
    std::uint64_t least_bytes_;  // columns_least_bytes
    Deflater::Method method_;
    std::unique_ptr<PayloadPipeline> pipeline_;
};

}  // namespace qprof::detail::html
