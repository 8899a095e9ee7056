// The raw stream's colour classes (format 1.3): one definition, which the writer and the
// reader share. docs/raw-format.md describes the bytes.
//
//   write_classes(block, first_id, sites);   // a CLASSES block after the SITES it classes
//   read_classes(payload, run.sites);        // each listed site's class back
//
// write_classes is the runtime's, read_classes the io layer's (io/raw_optional_decode.cpp).
//
// CLASSES is an optional block type, so a 1.2 reader skips it; a stream without one (every
// stream before 1.3) has no classes.
#pragma once

#include <cstdint>
#include <qprof/detail/site.hpp>
#include <vector>

#include "raw_format.hpp"

namespace qprof::detail {

// Whether any of `sites` has a class: a CLASSES block is written only then.
bool has_colour_classes(const std::vector<RegisteredSite>& sites);
// The classes of `sites` (whose ids start at `first_id`) from index `next` on, until the
// payload reaches `max_bytes`; returns the index to go on from in another block (sites.size()
// when all are written).
std::size_t write_classes(raw::BlockEncoder& out, std::uint32_t first_id,
                          const std::vector<RegisteredSite>& sites, std::size_t next,
                          std::size_t max_bytes);
// Sets the class of each site the block lists; throws raw::FormatError for a site not yet
// declared or a class colour_class_problem (colour_classes.hpp) refuses.
void read_classes(raw::PayloadReader& in, std::vector<RegisteredSite>& sites);

}  // namespace qprof::detail
