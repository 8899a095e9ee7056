// libFuzzer target: any bytes through read_stream, complete_trace, merge_traces and every
// text reporter, as `qprof report` does with a file. Run it with scripts/run-fuzz.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <qprof/reporter.hpp>
#include <span>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "raw_format.hpp"
#include "raw_reader.hpp"
#include "trace_merge.hpp"

namespace {

using namespace qprof::detail;

// The folded format writes every stack whole, so its size grows as depth times frame length
// for every node, for any tool writing it; past this estimate its memory, not a bug, would
// stop the fuzzer.
constexpr double kFoldedBytes = 256.0 * (1 << 20);

double folded_bytes(const qprof::Trace& trace) {
    std::size_t longest = 0;
    for (const qprof::SiteInfo& site : trace.sites) {
        longest = std::max(longest, site.provider.size());
    }
    for (const std::string& key : trace.key_texts) {
        longest = std::max(longest, key.size() + 2);
    }
    double bytes = 0;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        for (const qprof::Node& node : thread.nodes) {
            bytes += (node.depth + 1.0) * (static_cast<double>(longest) + 8);
        }
    }
    return bytes;
}

// Output the fuzzer does not need to keep: a report of a few kilobytes of input can be
// gigabytes, which the real tool streams to a file.
class DiscardingBuffer : public std::streambuf {
  protected:
    int overflow(int c) override { return c == traits_type::eof() ? 0 : c; }
    std::streamsize xsputn(const char*, std::streamsize count) override { return count; }
};

void report_stream(std::span<const unsigned char> bytes, bool keep_nodes) {
    ReadResult read = read_stream(bytes, {.keep_nodes = keep_nodes});
    if (read.runs.empty()) {
        return;
    }
    std::vector<qprof::Trace> traces;
    for (RecordedRun& run : read.runs) {
        traces.push_back(complete_trace(std::move(run.inputs)));
    }
    const qprof::Trace trace = merge_traces(std::move(traces));
    for (const char* name : {"counts", "folded", "html", "chrome", "keys", "flamegraph"}) {
        const auto reporter = qprof::make_reporter(name);
        if (!keep_nodes && reporter->needs_nodes()) {
            continue;  // as the tool and the session do: a totals-only trace has no nodes
        }
        const qprof::ReportOptions& options = read.runs.front().report;
        if (std::string_view{name} == "folded" &&
            (folded_bytes(trace) > kFoldedBytes ||
             (options.folded_bytes && !trace.memory_recorded))) {
            continue;  // the second: weighing by bytes without them, which `qprof report` refuses
        }
        reporter->configure(options);
        DiscardingBuffer discard;
        std::ostream out{&discard};
        reporter->write(trace, out);
    }
}

std::uint32_t u32_at(const std::vector<unsigned char>& bytes, std::size_t at) {
    std::uint32_t value = 0;
    std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
}

void set_crc(std::vector<unsigned char>& bytes, std::size_t at, std::uint32_t crc) {
    std::memcpy(bytes.data() + at, &crc, sizeof crc);
}

// A mutation almost never keeps a CRC32C right, so most inputs would stop at the first
// checksum; the same bytes with every checksum made right reach the parsers behind them.
std::vector<unsigned char> with_checksums_fixed(std::span<const unsigned char> input) {
    std::vector<unsigned char> bytes(input.begin(), input.end());
    if (bytes.size() < raw::kFileHeaderBytes) {
        return bytes;
    }
    set_crc(bytes, 28, raw::crc32c(bytes.data(), 28));
    std::size_t at = std::max<std::size_t>(u32_at(bytes, 16), raw::kFileHeaderBytes);
    while (at <= bytes.size() && bytes.size() - at >= raw::kBlockHeaderBytes) {
        const std::size_t length = u32_at(bytes, at + 4);
        if (length > bytes.size() - at - raw::kBlockHeaderBytes) {
            break;
        }
        const std::uint32_t crc = raw::crc32c(bytes.data() + at, 12);
        set_crc(bytes, at + 12, raw::crc32c(bytes.data() + at + 16, length, crc));
        at += raw::kBlockHeaderBytes + length;
    }
    return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const unsigned char> bytes{data, size};
    report_stream(bytes, true);
    report_stream(bytes, false);
    const std::vector<unsigned char> fixed = with_checksums_fixed(bytes);
    if (!std::equal(fixed.begin(), fixed.end(), bytes.begin())) {
        report_stream(fixed, true);
        report_stream(fixed, false);
    }
    return 0;
}
