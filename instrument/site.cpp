#include <mutex>
#include <qprof/detail/site.hpp>

namespace qprof::detail {

namespace {

// Copies, not pointers: a site may be owned by an object (a qprof::Query) that dies first.
struct SiteTable {
    std::mutex mutex;
    std::vector<SiteInfo> sites{SiteInfo{"", "", 0, SiteKind::query}};  // id 0 stays unused
};

SiteTable& site_table() {
    static SiteTable* table = new SiteTable;  // never destroyed: sites outlive static teardown
    return *table;
}

}  // namespace

std::uint32_t register_site(Site& site) {
    SiteTable& table = site_table();
    std::lock_guard lock{table.mutex};
    std::uint32_t id = site.id.load(std::memory_order_relaxed);
    if (id == 0) {
        id = static_cast<std::uint32_t>(table.sites.size());
        table.sites.push_back(SiteInfo{site.provider, site.file, site.line, site.kind});
        site.id.store(id, std::memory_order_release);
    }
    return id;
}

std::vector<SiteInfo> registered_sites() {
    SiteTable& table = site_table();
    std::lock_guard lock{table.mutex};
    return table.sites;
}

}  // namespace qprof::detail
