#include "totals_builder.hpp"

namespace qprof::detail {

void ProviderSlots::add_sites(const std::vector<RegisteredSite>& sites) {
    for (const RegisteredSite& site : sites) {
        ProviderKey provider{site.provider, site.kind != SiteKind::query};
        auto [it, added] =
            slot_of_provider_.try_emplace(provider, static_cast<std::uint32_t>(providers_.size()));
        if (added) {
            providers_.push_back(std::move(provider));
        }
        slot_of_site_.push_back(it->second);
    }
}

}  // namespace qprof::detail
