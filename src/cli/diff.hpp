// qprof diff BASE NEW: the change of each provider's self time between two saved runs, as an
// aligned table, JSON or one self-contained HTML page.
//
//   const CommandSpec command = diff_command();
//   const ParsedArgs args = parse_args(command, words);
//   const DiffOptions options = diff_options(args);   // throws UsageError
//   write_diff({args.positionals[0], base}, {args.positionals[1], next}, options, std::cout);
//
// Providers are matched by name and kind (an activity only with an activity). A change is
// NEW minus BASE: negative is faster. Self time is work: waits (blocked, PROFILE_WAIT) are
// left out, so that waiting less is not read as computing faster: it is the self time of the
// provider's nodes that are not waits (ProviderTotals::work_self_ns), as the HTML report's
// statistics count it. The mean per run is the self time over the calls the cache did not
// answer (count - hits), so that a run that asks a provider more often is told apart from one
// where each call got slower. A provider found in one run only has 0 for the other run's
// values and no change percent; so has a provider whose base self time is 0.
//
// Noise: a change of a provider found in both runs is within noise when it is under
// kNoisePercent % of its base self time, or under kNoiseWallPercent % of the base wall time.
// Such rows are marked, drawn without colour, and sort after every real change.
//
// The JSON (--json), one provider a line, times in integer nanoseconds:
//   {"base":{"file":S,"wall_ns":N,"events":N},"new":{"file":S,"wall_ns":N,"events":N},
//    "wall_change_ns":N,"noise_threshold":{"percent":5,"wall_percent":0.1},"providers":[
//   {"provider":S,"activity":B,"region":B,"status":"both"|"only in base"|"only in
//   new","base_self_ns":N,
//    "new_self_ns":N,"change_ns":N,"change_percent":X|null,"base_mean_ns":N|null,
//    "new_mean_ns":N|null,"noise":B,"count_change":N,"hits_change":N},
//   ...]}
// change_percent is 100 * change_ns / base_self_ns rounded to 3 decimals; rows in the order
// of the table.
//
// Memory: when either run recorded memory (-Z profile-queries-memory), the document has
// "memory":true after "noise_threshold", and each provider, after "hits_change", its self
// memory (without the queries it asked) in bytes, NEW minus BASE as for time:
//   "base_self_allocated_bytes":N,"new_self_allocated_bytes":N,"allocated_change_bytes":N,
//   "allocations_change":N,"retained_change_bytes":N
// The table then has the same five columns, in KiB. A run that did not record memory has null
// for its side (the table: "—"), and so have the three changes; a provider found in one run
// only counts 0 in the other, as for time. Memory is counted, not timed: it has no noise
// threshold.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <qprof/trace.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"

namespace qprof::cli {

// change: largest absolute change first; change-pct: largest absolute percent first, rows
// without one last; name: A to Z. Ties by name.
// alloc-change: largest absolute change of self allocated bytes first.
enum class DiffSort { change, change_percent, alloc_change, name };
enum class DiffFormat { text, json, html };

struct DiffOptions {
    DiffSort sort = DiffSort::change;
    DiffFormat format = DiffFormat::text;
};

inline constexpr double kNoisePercent = 5.0;
inline constexpr double kNoiseWallPercent = 0.1;

enum class Presence { both, only_base, only_new };
std::string_view presence_name(Presence presence);  // "both", "only in base", "only in new"

struct DiffRow {
    std::string provider;
    bool is_activity = false;
    bool is_region = false;  // an activity entered with qprof::enter_region
    Presence presence = Presence::both;
    std::int64_t base_self_ns = 0;
    std::int64_t new_self_ns = 0;
    std::int64_t change_ns = 0;                // new - base
    std::optional<double> change_percent;      // of base_self_ns
    std::optional<std::int64_t> base_mean_ns;  // self time per run; none without runs
    std::optional<std::int64_t> new_mean_ns;
    bool noise = false;  // within the noise threshold
    std::int64_t count_change = 0;
    std::int64_t hits_change = 0;
    // Self memory (ProviderTotals::memory_self): none for a run that did not record it, and
    // no change unless both did.
    std::optional<std::int64_t> base_self_allocated;
    std::optional<std::int64_t> new_self_allocated;
    std::optional<std::int64_t> allocated_change;
    std::optional<std::int64_t> allocations_change;
    std::optional<std::int64_t> retained_change;
};

// A run and the file it was read from, as the reports name it.
struct DiffRun {
    std::string file;
    const Trace& trace;
};

// The declaration of `qprof diff BASE NEW` (--sort, --json, --html, -q).
CommandSpec diff_command();
// Throws UsageError when --json and --html are both given.
DiffOptions diff_options(const ParsedArgs& args);

std::vector<DiffRow> diff_rows(const Trace& base, const Trace& next, DiffSort sort);
void write_diff_text(const DiffRun& base, const DiffRun& next, DiffSort sort, std::ostream& out);
void write_diff_json(const DiffRun& base, const DiffRun& next, DiffSort sort, std::ostream& out);
void write_diff_html(const DiffRun& base, const DiffRun& next, DiffSort sort,
                     std::ostream& out);  // diff_html.cpp

// Shared by the table and the page.
// The noise threshold, stated with what it means for these runs.
std::string noise_text(const DiffRun& base);
std::optional<double> wall_change_percent(const DiffRun& base, const DiffRun& next);
// The one options.format asks for.
void write_diff(const DiffRun& base, const DiffRun& next, const DiffOptions& options,
                std::ostream& out);

}  // namespace qprof::cli
