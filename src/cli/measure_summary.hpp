// What `qprof summarize` says about a run's sizes (qprof::record_size) and counters
// (qprof::counter), under its provider and region tables: each only when the run recorded one.
//
//   size         total bytes  records  mean bytes
//   object file   12,345,678      400      30,864
//
//   counter     samples  min     max
//   live nodes    1,100    0  12,345
//
// Sizes sort by total bytes, counters by name. The JSON (--json) carries both, always:
//   "sizes":[{"name":S,"bytes":N,"records":N},...],
//   "counters":[{"name":S,"samples":N,"min":N,"max":N},...]
// in the order of the tables.
#pragma once

#include <ostream>
#include <qprof/trace.hpp>
#include <string>

namespace qprof::cli {

// Each table with a blank line after it, and before it unless `after_blank_line`.
void write_measure_tables(const Trace& trace, bool after_blank_line, std::ostream& out);
// `"sizes":[...],"counters":[...]`, for the summary's JSON.
std::string measures_json(const Trace& trace);

}  // namespace qprof::cli
