// profile_queries.qprof: the binary event stream (docs/raw-format.md), read back by the qprof
// tool. The collector streams it while the program runs (src/raw_writer.hpp), so that a long
// run keeps no trace in memory for it; this class only names it.
#include <stdexcept>

#include "builtin_reporters.hpp"
#include "raw_writer.hpp"

namespace qprof::detail {

namespace {

class RawReporter : public Reporter {
  public:
    std::string_view name() const override { return kRawReporter; }
    std::string_view description() const override {
        return "binary event stream, written as the program runs; read with the qprof tool";
    }
    std::string_view file_suffix() const override { return "qprof"; }
    bool needs_nodes() const override { return false; }
    void write(const Trace&, std::ostream&) override {
        throw std::logic_error(
            "the raw stream is written while the program runs; it cannot be made from a "
            "finished trace (use 'qprof merge' to combine saved streams)");
    }
};

}  // namespace

std::unique_ptr<Reporter> make_raw_reporter() { return std::make_unique<RawReporter>(); }

}  // namespace qprof::detail
