// Regions (qprof/detail/region.hpp): a site per distinct name, found by the name's address in
// a small per-thread cache, and the thread's stack of open regions (ThreadState).
#include <cstdint>
#include <memory>
#include <mutex>
#include <qprof/detail/record_limits.hpp>
#include <qprof/detail/recorder.hpp>
#include <qprof/detail/region.hpp>
#include <qprof/detail/site.hpp>
#include <string>
#include <unordered_map>

namespace qprof::detail {

namespace {

// One site per region name, for the whole process: never freed, as sites are not.
struct RegionSite {
    std::string name;
    std::string file;
    Site site;
    RegionSite(std::string region, const char* first_file, std::uint32_t line)
        : name(std::move(region)),
          file(first_file),
          site(name.c_str(), file.c_str(), line, SiteKind::region) {}
};

std::uint32_t register_region(const char* name, const char* file, std::uint32_t line) {
    static std::mutex mutex;
    static auto* sites = new std::unordered_map<std::string, std::unique_ptr<RegionSite>>;
    std::lock_guard lock{mutex};
    auto [it, added] = sites->try_emplace(name);
    if (added) {
        it->second = std::make_unique<RegionSite>(name, file, line);
    }
    return site_id(it->second->site);
}

// The site ids of the names this thread entered, by the name's address: direct-mapped.
struct CachedRegion {
    const char* name;
    std::uint32_t site;
};
constexpr std::size_t kCachedRegions = 64;
thread_local constinit CachedRegion t_region_sites[kCachedRegions]{};

std::uint32_t region_site(const char* name, const char* file, std::uint32_t line) {
    CachedRegion& slot =
        t_region_sites[(reinterpret_cast<std::uintptr_t>(name) >> 3) % kCachedRegions];
    if (slot.name != name) [[unlikely]] {
        slot = CachedRegion{name, register_region(name, file, line)};
    }
    return slot.site;
}

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
    const std::uint32_t site = region_site(name, file, line);
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
