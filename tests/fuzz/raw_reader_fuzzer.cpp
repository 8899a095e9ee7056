// libFuzzer target: any bytes through read_stream, complete_trace, merge_traces and every
// text reporter, as `qprof report` does with a file. Run it with scripts/run-fuzz.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <qprof/reporter.hpp>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "raw_format.hpp"
#include "raw_reader.hpp"
#include "trace_merge.hpp"

namespace {

using namespace qprof::detail;

// Deeper than this, a folded report of a few hundred kilobytes of input passes the fuzzer's
// memory limit, as it would for any tool writing that format.
constexpr std::uint32_t kFoldedDepth = 2'000;

std::uint32_t deepest(const qprof::Trace& trace) {
    std::uint32_t depth = 0;
    for (const qprof::ThreadTrace& thread : trace.threads) {
        for (const qprof::Node& node : thread.nodes) {
            depth = std::max<std::uint32_t>(depth, node.depth);
        }
    }
    return depth;
}

void report_stream(std::span<const unsigned char> bytes, bool keep_nodes) {
    ReadResult read = read_stream(bytes, {.keep_nodes = keep_nodes});
    if (read.runs.empty()) {
        return;
    }
    std::vector<NamedTrace> traces;
    for (RecordedRun& run : read.runs) {
        traces.push_back({complete_trace(std::move(run.inputs)),
                          run.program + "[" + std::to_string(run.pid) + "]"});
    }
    const qprof::Trace trace = merge_traces(std::move(traces));
    for (const char* name : {"counts", "folded", "html", "chrome", "keys", "flamegraph"}) {
        const auto reporter = qprof::make_reporter(name);
        if (!keep_nodes && reporter->needs_nodes()) {
            continue;  // as the tool and the session do: a totals-only trace has no nodes
        }
        if (std::string_view{name} == "folded" && deepest(trace) > kFoldedDepth) {
            continue;  // the format writes every stack whole: its size grows as depth squared
        }
        reporter->configure(read.runs.front().report);
        std::ostringstream out;
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
