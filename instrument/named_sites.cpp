// Named sites (named_sites.hpp): a process-wide table by (kind, text), and a direct-mapped
// cache per thread by (address, kind).
#include "named_sites.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <qprof/detail/alloc_counter.hpp>
#include <string>
#include <utility>

#include "fork_safety.hpp"

namespace qprof::detail {

namespace {

// Never freed, as sites are not: a thread may hold a pointer to it until the process ends.
struct NamedSite {
    std::string name;
    std::string file;
    Site site;
    NamedSite(std::string site_name, const char* first_file, std::uint32_t line, SiteKind kind)
        : name(std::move(site_name)),
          file(first_file),
          site(name.c_str(), file.c_str(), line, kind) {}
};

// Held across fork(): a thread registering a name must not leave it locked in the child.
std::mutex& named_sites_mutex() {
    static auto* mutex = new std::mutex;
    return *mutex;
}

using NamedSites = std::map<std::pair<SiteKind, std::string>, std::unique_ptr<NamedSite>>;

NamedSites& named_sites() {  // under named_sites_mutex()
    static auto* sites = new NamedSites;
    return *sites;
}

// Made while the program is loaded, before main, when it has one thread: a fork() can then
// never find another thread initialising these function-local statics, whose guards a child
// would wait on forever (README, "When the program forks").
[[maybe_unused]] const bool g_named_sites_made_at_load = (named_sites_mutex(), named_sites(), true);

Site& register_named(const char* name, SiteKind kind, const char* file, std::uint32_t line) {
    const OwnAllocations own;
    std::lock_guard lock{named_sites_mutex()};
    auto [it, added] = named_sites().try_emplace({kind, name != nullptr ? name : ""});
    if (added) {
        it->second = std::make_unique<NamedSite>(it->first.second, file, line, kind);
    }
    site_id(it->second->site);  // registered before any record names it
    return it->second->site;
}

struct CachedSite {
    const char* name;
    SiteKind kind;
    Site* site;
};
constexpr std::size_t kCachedSites = 64;
thread_local constinit CachedSite t_named_sites[kCachedSites]{};

}  // namespace

void lock_named_sites_for_fork() { named_sites_mutex().lock(); }
void unlock_named_sites_after_fork() { named_sites_mutex().unlock(); }

Site& named_site(const char* name, SiteKind kind, const char* file, std::uint32_t line) {
    const std::uintptr_t slot_of =
        (reinterpret_cast<std::uintptr_t>(name) >> 3) + static_cast<std::uintptr_t>(kind);
    CachedSite& slot = t_named_sites[slot_of % kCachedSites];
    if (slot.name != name || slot.kind != kind) [[unlikely]] {
        slot = CachedSite{name, kind, &register_named(name, kind, file, line)};
    }
    return *slot.site;
}

}  // namespace qprof::detail
