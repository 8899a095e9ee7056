// Sites named at run time by a string that outlives its use (a literal, or a table of names):
// regions, sizes and counters. One site per name and kind for the whole process, found by the
// name's address in a small per-thread cache, so that a use costs no lookup by text and, after
// a thread's first use of a name, no lock and no allocation.
//
//   Site& site = named_site("object file", SiteKind::size, __builtin_FILE(), __builtin_LINE());
#pragma once

#include <cstdint>
#include <qprof/detail/site.hpp>

namespace qprof::detail {

// `file` and `line`: the first use, which reports name as the site's place.
Site& named_site(const char* name, SiteKind kind, const char* file, std::uint32_t line);

}  // namespace qprof::detail
