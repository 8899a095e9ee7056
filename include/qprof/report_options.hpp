// Settings the -Z flags give to every reporter, on top of the trace itself.
//
//   qprof::SessionOptions options;
//   options.report.important_extent = 10;   // same as -Z profile-queries-important=10,1
#pragma once

#include <cstdint>

namespace qprof {

struct ReportOptions {
    // A node is important -- opened and labelled in the HTML tree, listed first elsewhere --
    // when it has at least this many immediate children (the original's "extent")...
    std::uint32_t important_extent = 6;
    // ... or when it takes at least this share of the wall time, in percent. Hits never are.
    double important_percent = 1.0;
};

}  // namespace qprof
