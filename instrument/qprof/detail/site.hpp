// One static record per call site, registered once, so that an event carries a small id
// instead of a string.
//
//   static constinit qprof::detail::Site site{"type_of", __FILE__, __LINE__, SiteKind::query};
//   std::uint32_t id = site_id(site);   // registers on the first call only
//
// A site may carry a colour class (PROFILE_QUERY_CLASS): a word the reports colour its
// provider by. It is part of the static record, so an event never carries it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace qprof::detail {

// A region (qprof::enter_region) is an activity that ends when the next region begins. A size
// (qprof::record_size) and a counter (qprof::counter) name a measure, not a scope: their
// records make no node.
enum class SiteKind : std::uint8_t { query, activity, region, size, counter };

struct Site {
    const char* provider;
    const char* file;
    std::uint32_t line;
    SiteKind kind;
    const char* colour_class;          // null or "" for none
    std::atomic<std::uint32_t> id{0};  // 0 until registered; ids start at 1
    // What the current session records here: its generation in the high half, a bit per
    // record kind in the low (select_site in recorder.hpp). 0 until the site is first used.
    std::atomic<std::uint64_t> selection{0};

    constexpr Site(const char* provider_name, const char* file_name, std::uint32_t line_number,
                   SiteKind site_kind, const char* class_name = nullptr)
        : provider(provider_name),
          file(file_name),
          line(line_number),
          kind(site_kind),
          colour_class(class_name) {}
    Site(const Site&) = delete;
    Site& operator=(const Site&) = delete;
};

std::uint32_t register_site(Site& site);

inline std::uint32_t site_id(Site& site) {
    std::uint32_t id = site.id.load(std::memory_order_acquire);
    if (id == 0) [[unlikely]] {
        id = register_site(site);
    }
    return id;
}

// A copy of one registered site, for the collector and the reporters.
struct RegisteredSite {
    std::string provider;
    std::string file;
    std::uint32_t line;
    SiteKind kind;
    std::string colour_class;  // the site's own (PROFILE_QUERY_CLASS); empty for none
};

// Every site registered so far, indexed by id (index 0 is an unused placeholder).
std::vector<RegisteredSite> registered_sites();
std::vector<RegisteredSite> registered_sites_from(std::uint32_t first);
// Sites registered so far, id 0 included: a check cheap enough to make for every chunk.
std::uint32_t registered_site_count();

}  // namespace qprof::detail
