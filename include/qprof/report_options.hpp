// Settings the -Z flags give to every reporter, on top of the trace itself.
//
//   qprof::SessionOptions options;
//   options.report.important_extent = 10;   // same as -Z profile-queries-important=10,1
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <cstdint>

namespace qprof {

struct ReportOptions {
    // A node is important -- opened first and outlined in the HTML tree, listed first elsewhere --
    // when it has at least this many immediate children (the original's "extent")...
    std::uint32_t important_extent = 6;
    // ... or when it takes at least this share of the wall time, in percent. Hits never are.
    double important_percent = 1.0;

    // -Z profile-queries-folded=merge-threads,hits,keys,args,classes,bytes
    // (profile_queries.folded)
    bool folded_merge_threads = false;  // one root for all threads instead of one per thread
    bool folded_hits = false;           // cache hits as annotated leaf frames
    bool folded_keys = false;           // "provider(key)" frames: many more stacks
    bool folded_args = false;           // "activity(argument)" frames (keys imply them)
    bool folded_classes = false;        // "provider_[CLASS]" frames for a class's providers
    bool folded_bytes = false;          // weighed by allocated bytes (-Z profile-queries-memory)

    // -Z profile-queries-chrome=hits,keys (profile_queries.trace.json): hits as instant events;
    // each event's key in its args. Off by default: viewers such as speedscope make args part
    // of the frame name, which would split every provider into one frame per key.
    bool chrome_hits = false;
    bool chrome_keys = false;

    bool operator==(const ReportOptions&) const = default;
};

}  // namespace qprof

#endif  // QPROF_DETAIL_CXX20
