// A stream buffer that counts what is written and keeps nothing, for benchmarks that time a
// reporter's work without the disk's (reporter_benchmark.cpp, html_parts_benchmark.cpp).
//
//   const std::streamsize bytes = qprof::bench::report_bytes(trace, "html");
#pragma once

#include <memory>
#include <ostream>
#include <qprof/reporter.hpp>
#include <qprof/trace.hpp>
#include <streambuf>

namespace qprof::bench {

class CountingBuffer : public std::streambuf {
  public:
    std::streamsize bytes() const { return bytes_; }

  protected:
    std::streamsize xsputn(const char*, std::streamsize count) override {
        bytes_ += count;
        return count;
    }
    int_type overflow(int_type c) override {
        ++bytes_;
        return c;
    }

  private:
    std::streamsize bytes_ = 0;
};

// The bytes the built-in reporter `name` writes for `trace`, with the default options.
inline std::streamsize report_bytes(const qprof::Trace& trace, const char* name) {
    std::unique_ptr<qprof::Reporter> reporter = qprof::make_reporter(name);
    reporter->configure(qprof::ReportOptions{});
    CountingBuffer buffer;
    std::ostream out{&buffer};
    reporter->write(trace, out);
    return buffer.bytes();
}

}  // namespace qprof::bench
