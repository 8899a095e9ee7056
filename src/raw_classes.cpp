#include "raw_classes.hpp"

#include <string>

namespace qprof::detail {

bool has_colour_classes(const std::vector<RegisteredSite>& sites) {
    for (const RegisteredSite& site : sites) {
        if (!site.colour_class.empty()) {
            return true;
        }
    }
    return false;
}

// CLASSES: u32 count, then per classed site its u32 id and its class, a str.
std::size_t write_classes(raw::BlockEncoder& out, std::uint32_t first_id,
                          const std::vector<RegisteredSite>& sites, std::size_t next,
                          std::size_t max_bytes) {
    const std::size_t count_at = out.later_u32();
    std::uint32_t count = 0;
    for (; next < sites.size() && out.payload_bytes() < max_bytes; ++next) {
        if (!sites[next].colour_class.empty()) {
            out.u32(first_id + static_cast<std::uint32_t>(next));
            out.str(sites[next].colour_class);
            ++count;
        }
    }
    out.set_u32(count_at, count);
    return next;
}

}  // namespace qprof::detail
