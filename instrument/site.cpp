#include <mutex>
#include <qprof/detail/alloc_counter.hpp>
#include <qprof/detail/record_limits.hpp>
#include <qprof/detail/site.hpp>

#include "fork_safety.hpp"

namespace qprof::detail {

namespace {

// Copies, not pointers: a site may be owned by an object (a qprof::Query) that dies first.
struct SiteTable {
    std::mutex mutex;
    std::vector<RegisteredSite> sites{
        RegisteredSite{"", "", 0, SiteKind::query, ""}};  // id 0 stays unused
    std::atomic<std::uint32_t> count{1};                  // sites.size(), readable without the lock
};

SiteTable& site_table() {
    static SiteTable* table = new SiteTable;  // never destroyed: sites outlive static teardown
    return *table;
}

// Made while the program is loaded, before main, when it has one thread: a fork() can then
// never find another thread initialising this function-local static, whose guard a child
// would wait on forever (README, "When the program forks").
[[maybe_unused]] const bool g_site_table_made_at_load = (site_table(), true);

}  // namespace

std::uint32_t register_site(Site& site) {
    const OwnAllocations own;  // a site's first use happens inside the program's scopes
    SiteTable& table = site_table();
    std::lock_guard lock{table.mutex};
    std::uint32_t id = site.id.load(std::memory_order_relaxed);
    if (id == 0) {
        id = static_cast<std::uint32_t>(table.sites.size());
        RegisteredSite info{site.provider, site.file, site.line, site.kind,
                            site.colour_class != nullptr ? site.colour_class : ""};
        cap_name(info.provider);  // a Query's name is the program's string, of any length
        cap_name(info.file);
        cap_name(info.colour_class);
        table.sites.push_back(std::move(info));
        table.count.store(id + 1, std::memory_order_release);
        site.id.store(id, std::memory_order_release);
    }
    return id;
}

std::vector<RegisteredSite> registered_sites() { return registered_sites_from(0); }

std::vector<RegisteredSite> registered_sites_from(std::uint32_t first) {
    SiteTable& table = site_table();
    std::lock_guard lock{table.mutex};
    if (first >= table.sites.size()) {
        return {};
    }
    return std::vector<RegisteredSite>(table.sites.begin() + first, table.sites.end());
}

void lock_sites_for_fork() { site_table().mutex.lock(); }
void unlock_sites_after_fork() { site_table().mutex.unlock(); }

std::uint32_t registered_site_count() { return site_table().count.load(std::memory_order_acquire); }

}  // namespace qprof::detail
