// `qprof merge`: saved runs into one file, as a build of a thousand processes needs it. The
// inputs are checked in parallel (each read whole, so that a damaged run is refused rather
// than copied) and written out in the order given as soon as each is checked, so that memory
// holds a few inputs at a time, however many there are:
//
//   MergeResult result = merge_files(paths, "build.qprof", {.progress = true});
//   if (result.status == kExitOk) say(result.runs, result.events);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace qprof::cli {

struct MergeOptions {
    bool progress = true;  // a progress bar on stderr, when it is a terminal
    unsigned workers = 0;  // threads that check inputs; 0: one per core
};

struct MergeResult {
    int status = 0;  // input.hpp: kExitOk, or kExitFailed (said on stderr; no file written)
    std::uint32_t runs = 0;
    std::uint64_t events = 0;
};

// Writes every run of `paths`, in that order, to `out_path`, which is replaced only when all
// were merged: the runs go to a temporary file beside it, renamed at the end.
MergeResult merge_files(const std::vector<std::string>& paths, const std::string& out_path,
                        const MergeOptions& options);

}  // namespace qprof::cli
