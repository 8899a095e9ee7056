// Regions: phases that end where the next begins, not where a C++ scope closes (an event
// loop's states, an interpreter's dispatch, a language server moving between requests).
//
//   qprof::enter_region("loop0");   // ends the region open here, if any, and starts loop0
//   qprof::enter_region("loop1");   // loop0 ends: the exit is implicit
//   qprof::exit_region();           // loop1 ends; the thread's or the session's end would too
//
// A region is recorded as an activity whose site has the kind `region`: queries asked inside
// it are its children, and every report shows it as it shows activities. It lives at the depth
// where it was entered. Entering a region ends the open region only when that region is the
// innermost open scope; inside a provider scope or activity entered meanwhile, the new region
// nests in that scope, and ends at the latest when that scope ends (a region never outlives
// the scope it was entered in, so the trace stays a tree).
//
// A region's name must outlive the program's use of it (a string literal, or a table of names):
// each thread keeps the site of the names it used by their address, so that a switch costs a
// clock read and one 24-byte record, no lookup by text.
#pragma once

#include <cstdint>

namespace qprof::detail {

// `file` and `line`: the call site, which the region's first entry names in reports (the
// builtins that std::source_location is made of, which clang 14 lacks).
void enter_region(const char* name, const char* file = __builtin_FILE(),
                  std::uint32_t line = __builtin_LINE());
void exit_region();

}  // namespace qprof::detail
