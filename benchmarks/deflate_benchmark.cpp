// qprof's DEFLATE (reporters/deflate.cpp) on data shaped like the HTML payload's columns: how
// many bytes a second it compresses, and to what ratio; handed over at once or in 64 KiB
// writes, which must cost the same (the window is slid, never copied per block).
//
//   $ ./deflate_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "deflate.hpp"

namespace {

constexpr std::size_t kNodes = 2'000'000;  // about 8 MB of varints

void append_varint(std::string& out, std::uint64_t value) {
    for (; value >= 0x80; value >>= 7) {
        out += static_cast<char>((value & 0x7f) | 0x80);
    }
    out += static_cast<char>(value);
}

// A tag column (a few providers, mostly hits), a size column (mostly leaves) and a duration
// column (log-uniform nanoseconds, 0 for hits), as html_columns.cpp writes them.
const std::string& columns() {
    static const std::string bytes = [] {
        std::mt19937_64 random{13};
        std::string tags;
        std::string sizes;
        std::string durations;
        for (std::size_t n = 0; n < kNodes; ++n) {
            const bool hit = random() % 3 != 0;
            append_varint(tags, (random() % 12) << 5 | (hit ? 1 : 0));
            append_varint(sizes, hit || random() % 4 != 0 ? 1 : 2 + random() % 20);
            const double exponent = 2.0 + static_cast<double>(random() % 4000) / 1000.0;
            append_varint(durations,
                          hit ? 0 : static_cast<std::uint64_t>(std::pow(10.0, exponent)));
        }
        return tags + sizes + durations;
    }();
    return bytes;
}

void compress(benchmark::State& state) {
    const std::string_view data = columns();
    const auto piece = static_cast<std::size_t>(state.range(0));
    std::size_t packed = 0;
    for (auto _ : state) {
        packed = 0;
        qprof::detail::Deflater deflater{[&](std::string_view bytes) { packed += bytes.size(); },
                                         qprof::detail::Deflater::zlib};
        for (std::size_t at = 0; at < data.size(); at += piece) {
            deflater.write(data.substr(at, piece));
        }
        deflater.finish();
        benchmark::DoNotOptimize(packed);
    }
    state.counters["ratio"] = static_cast<double>(packed) / static_cast<double>(data.size());
    state.counters["nodes"] = static_cast<double>(kNodes);
    state.SetBytesProcessed(static_cast<std::int64_t>(data.size()) * state.iterations());
}

BENCHMARK(compress)->Arg(64 * 1024)->Arg(1 << 30)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
