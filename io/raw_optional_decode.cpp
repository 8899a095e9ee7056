// The decode halves of the optional blocks PROCESS, SELECTION and CLASSES (src/raw_process.hpp,
// src/raw_selection.hpp, src/raw_classes.hpp), which only readers link.
#include <string>
#include <string_view>
#include <vector>

#include "colour_classes.hpp"
#include "raw_classes.hpp"
#include "raw_cursor.hpp"
#include "raw_process.hpp"
#include "raw_selection.hpp"

namespace qprof::detail {

namespace {

// `count` strings, of `what` ("names", "arguments"): a count the block cannot hold is refused
// before any room is made for it.
std::vector<std::string> read_strings(raw::PayloadReader& in, std::uint32_t count,
                                      std::uint64_t count_at, std::string_view what) {
    if (count > in.remaining() / 4) {  // each string takes 4 bytes at least
        in.fail(std::to_string(count) + " " + std::string{what} + " declared (expected at most " +
                    std::to_string(in.remaining() / 4) + ", what the block holds)",
                count_at);
    }
    std::vector<std::string> strings;
    strings.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        strings.emplace_back(in.str());
    }
    return strings;
}

}  // namespace

void read_process(raw::PayloadReader& in, RunInfo& run) {
    run.parent_pid = in.u32();
    const std::uint64_t argc_at = in.offset();
    const std::uint32_t argc = in.u32();
    run.working_directory = std::string{in.str()};
    run.host = std::string{in.str()};
    run.argv = read_strings(in, argc, argc_at, "arguments");
}

void read_end_process(raw::PayloadReader& in, RunInfo& run) {
    if (in.remaining() < 16) {
        return;  // written by 1.0: no end time, no peak RSS
    }
    run.end_unix_ns = static_cast<std::int64_t>(in.u64());
    run.peak_rss_bytes = in.u64();
}

void read_selection(raw::PayloadReader& in, EventSelection& selection) {
    const std::uint32_t left_out = in.u32();
    for (std::uint32_t bit = 0; bit < std::size(kSelectionKindBits); ++bit) {
        selection.*kSelectionKindBits[bit] = (left_out & 1u << bit) == 0;
    }
    const std::uint64_t excluded_at = in.offset();
    const std::uint32_t excluded = in.u32();
    const std::uint64_t key_providers_at = in.offset();
    const std::uint32_t key_providers = in.u32();
    selection.excluded = read_strings(in, excluded, excluded_at, "names");
    selection.key_providers = read_strings(in, key_providers, key_providers_at, "names");
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
