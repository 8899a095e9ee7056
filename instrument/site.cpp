#include <mutex>
#include <qprof/detail/site.hpp>

namespace qprof::detail {

namespace {

struct SiteTable {
    std::mutex mutex;
    std::vector<const Site*> sites{nullptr};  // id 0 stays unused
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
        table.sites.push_back(&site);
        site.id.store(id, std::memory_order_release);
    }
    return id;
}

std::vector<SiteInfo> registered_sites() {
    SiteTable& table = site_table();
    std::lock_guard lock{table.mutex};
    std::vector<SiteInfo> copy;
    copy.reserve(table.sites.size());
    copy.push_back(SiteInfo{"", "", 0, SiteKind::query});
    for (std::size_t i = 1; i < table.sites.size(); ++i) {
        const Site& site = *table.sites[i];
        copy.push_back(SiteInfo{site.provider, site.file, site.line, site.kind});
    }
    return copy;
}

}  // namespace qprof::detail
