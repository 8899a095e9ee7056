// Regions (qprof/detail/region.hpp): a site per distinct name (named_sites.hpp), and the
// thread's stack of open regions (ThreadState).
#include <cstdint>
#include <qprof/detail/clock.hpp>
#include <qprof/detail/record_limits.hpp>
#include <qprof/detail/recorder.hpp>
#include <qprof/detail/region.hpp>
#include <qprof/detail/site.hpp>

#include "named_sites.hpp"

namespace qprof::detail {

namespace {

// Whether the innermost open scope of the thread is a region.
bool region_on_top(const ThreadState& t) {
    return t.regions > 0 && t.region_depth[t.regions - 1] + 1 == t.depth;
}

}  // namespace

void enter_region(const char* name, const char* file, std::uint32_t line) {
    ThreadState* t = recording_thread();
    if (t == nullptr) {
        return;
    }
    const std::uint32_t site = site_id(named_site(name, SiteKind::region, file, line));
    const std::uint64_t tick = now();  // the end of the last region is the start of this one
    if (region_on_top(*t)) {
        close_regions(*t, t->depth - 1, tick);
    }
    if (t->depth >= kOpenFrames || t->regions == kOpenRegions) [[unlikely]] {
        warn_limit(Limit::depth);
        return;  // not recorded; deeper scopes are recorded as if it were not there
    }
    const std::uint32_t depth = t->depth++;
    t->open[depth] = OpenFrame{record_head(RecordKind::activity, depth, site), tick};
    t->region_depth[t->regions++] = depth;
}

void exit_region() {
    ThreadState* t = recording_thread();
    if (t != nullptr && region_on_top(*t)) {
        close_regions(*t, t->depth - 1, now());
    }
}

}  // namespace qprof::detail
