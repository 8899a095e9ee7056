#include "raw_classes.hpp"

#include <string>

#include "colour_classes.hpp"

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

void read_classes(raw::PayloadReader& in, std::vector<RegisteredSite>& sites) {
    const std::uint64_t count_at = in.offset();
    const std::uint32_t count = in.u32();
    if (count > in.remaining() / 8) {  // each entry takes 8 bytes at least
        in.fail(std::to_string(count) + " classes declared (expected at most " +
                    std::to_string(in.remaining() / 8) + ", what the block holds)",
                count_at);
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t site_at = in.offset();
        const std::uint32_t site = in.u32();
        if (site == 0 || site >= sites.size()) {
            in.fail("class of site " + std::to_string(site) +
                        ", which is not declared (sites 1 to " + std::to_string(sites.size() - 1) +
                        " are)",
                    site_at);
        }
        const std::uint64_t class_at = in.offset();
        const std::string_view colour_class = in.str();
        if (const auto problem = colour_class_problem(colour_class)) {
            in.fail("bad class of site " + std::to_string(site) + ": " + *problem, class_at);
        }
        sites[site].colour_class = std::string{colour_class};
    }
}

}  // namespace qprof::detail
