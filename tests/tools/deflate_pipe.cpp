// Compresses standard input to standard output with qprof's own DEFLATE, for
// deflate_zlib_test.py to read back with Python's zlib.
//
//   deflate_pipe [--gzip | --zlib] [--chunk N] < data > data.deflate
// --chunk N hands the input to the compressor N bytes per call (default: all at once).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

#include "deflate.hpp"
#include "gzip.hpp"

int main(int argc, char** argv) {
    bool gzip = false;
    auto container = qprof::detail::Deflater::raw;
    std::size_t chunk = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--gzip") {
            gzip = true;
        } else if (arg == "--zlib") {
            container = qprof::detail::Deflater::zlib;
        } else if (arg == "--chunk" && i + 1 < argc) {
            chunk = std::strtoull(argv[++i], nullptr, 10);
        } else {
            std::cerr << "usage: deflate_pipe [--gzip | --zlib] [--chunk N] < data > packed\n";
            return 2;
        }
    }
    std::ios::sync_with_stdio(false);
    const std::string data{std::istreambuf_iterator<char>(std::cin), {}};
    std::string packed;
    if (gzip) {
        packed = qprof::detail::gzip_compress(data);
    } else {
        qprof::detail::Deflater deflater{[&](std::string_view bytes) { packed += bytes; },
                                         container};
        const std::size_t step = chunk == 0 ? data.size() + 1 : chunk;
        for (std::size_t at = 0; at < data.size(); at += step) {
            deflater.write(std::string_view{data}.substr(at, step));
        }
        deflater.finish();
    }
    std::cout.write(packed.data(), static_cast<std::streamsize>(packed.size()));
    return std::cout ? 0 : 1;
}
