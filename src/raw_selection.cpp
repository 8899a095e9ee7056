#include "raw_selection.hpp"

#include <string>

namespace qprof::detail {

namespace {

void write_names(raw::BlockEncoder& out, const std::vector<std::string>& names) {
    for (const std::string& name : names) {
        out.str(name);
    }
}

}  // namespace

// SELECTION: u32 left_out (a bit per kind), u32 excluded count, u32 key providers count, then
// the excluded providers and the key providers, each a str.
void write_selection(raw::BlockEncoder& out, const EventSelection& selection) {
    std::uint32_t left_out = 0;
    for (std::uint32_t bit = 0; bit < std::size(kSelectionKindBits); ++bit) {
        left_out |= selection.*kSelectionKindBits[bit] ? 0 : 1u << bit;
    }
    out.u32(left_out);
    out.u32(static_cast<std::uint32_t>(selection.excluded.size()));
    out.u32(static_cast<std::uint32_t>(selection.key_providers.size()));
    write_names(out, selection.excluded);
    write_names(out, selection.key_providers);
}

}  // namespace qprof::detail
