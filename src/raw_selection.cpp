#include "raw_selection.hpp"

#include <string>

namespace qprof::detail {

namespace {

// The kinds, by their bit in `left_out`.
constexpr bool EventSelection::*kKindBits[] = {&EventSelection::hits,  &EventSelection::activities,
                                               &EventSelection::waits, &EventSelection::loads,
                                               &EventSelection::sizes, &EventSelection::counters};

void write_names(raw::BlockEncoder& out, const std::vector<std::string>& names) {
    for (const std::string& name : names) {
        out.str(name);
    }
}

std::vector<std::string> read_names(raw::PayloadReader& in, std::uint32_t count,
                                    std::uint64_t count_at) {
    if (count > in.remaining() / 4) {  // each name takes 4 bytes at least
        in.fail(std::to_string(count) + " names declared (expected at most " +
                    std::to_string(in.remaining() / 4) + ", what the block holds)",
                count_at);
    }
    std::vector<std::string> names;
    names.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        names.emplace_back(in.str());
    }
    return names;
}

}  // namespace

// SELECTION: u32 left_out (a bit per kind), u32 excluded count, u32 key providers count, then
// the excluded providers and the key providers, each a str.
void write_selection(raw::BlockEncoder& out, const EventSelection& selection) {
    std::uint32_t left_out = 0;
    for (std::uint32_t bit = 0; bit < std::size(kKindBits); ++bit) {
        left_out |= selection.*kKindBits[bit] ? 0 : 1u << bit;
    }
    out.u32(left_out);
    out.u32(static_cast<std::uint32_t>(selection.excluded.size()));
    out.u32(static_cast<std::uint32_t>(selection.key_providers.size()));
    write_names(out, selection.excluded);
    write_names(out, selection.key_providers);
}

void read_selection(raw::PayloadReader& in, EventSelection& selection) {
    const std::uint32_t left_out = in.u32();
    for (std::uint32_t bit = 0; bit < std::size(kKindBits); ++bit) {
        selection.*kKindBits[bit] = (left_out & 1u << bit) == 0;
    }
    const std::uint64_t excluded_at = in.offset();
    const std::uint32_t excluded = in.u32();
    const std::uint64_t key_providers_at = in.offset();
    const std::uint32_t key_providers = in.u32();
    selection.excluded = read_names(in, excluded, excluded_at);
    selection.key_providers = read_names(in, key_providers, key_providers_at);
}

}  // namespace qprof::detail
