// qprof summarize: one row per provider of a saved run, as an aligned table or as JSON.
//
//   const CommandSpec command = summarize_command();
//   const ParsedArgs args = parse_args(command, words);
//   const SummaryOptions options = summary_options(args);   // throws UsageError
//   write_summary(trace, options, std::cout);
//
// The table: provider (an activity with a trailing " (activity)", a region " (region)"), self
// ms (its own work: without the queries it asked and without its waits on other threads, as
// `qprof diff` and the HTML report count it: ProviderTotals::work_self_ns), self % (of the summed
// self time of every provider), total ms, cpu ms (an activity's thread CPU time; — for others),
// count, hits, hit rate, blocked ms, load ms; times in milliseconds with 3 decimals. Then, when
// the run entered regions, a table of each region's total time and share of the time in regions;
// with --args, a row per activity and argument (argument_summary.hpp); its sizes and counters
// (measure_summary.hpp); then a line with the wall time, events and threads, and one with what
// the run did not record (-Z profile-queries-events), if anything;
// hits and hit rates show as "—" when hits were not recorded.
//
// The JSON (--json), one provider a line, times in integer nanoseconds:
//   {"wall_ns":N,"events":N,"threads":N,"program":S,"pid":N,"runs":[RUN,...],
//    "not_recorded":S,"total_self_ns":N,"providers":[
//   {"provider":S,"activity":B,"region":B,"self_ns":N,"self_percent":X,"total_ns":N,"count":N,
//    "hits":N,"hit_rate":X|null,"blocked_ns":N,"load_ns":N,"cpu_ns":N|null,
//    "region_percent":X|null[,MEMORY]},
//   ...],
//   "sizes":[...],"counters":[...]}   (measure_summary.hpp)
// MEMORY, when the run recorded memory (-Z profile-queries-memory), in bytes:
//   "allocated_bytes":N,"allocations":N,"retained_bytes":N, then the same prefixed "self_":
//   inclusive (a provider re-entered inside itself counted once), then without its children's.
//   The table then has the same six columns, self first, in KiB.
// self_ns is the table's self time (work, waits left out) and total_self_ns their sum over every
// provider; self_percent is 0..100 (of total_self_ns), hit_rate 0..1 (hits / count; null for an
// activity or a provider never asked, or when hits were not recorded), region_percent 0..100 (of
// the time in regions; null but for a region), all rounded to 3 decimals; cpu_ns is null but for an
// activity; not_recorded is what -Z profile-queries-events left out ("" when nothing); rows in
// the order and with the filter of the table. RUN is described in run_summary.hpp; --by-process
// writes those instead.
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

// Every key sorts largest first, ties by name; `name` sorts A to Z.
// The memory keys (-Z profile-queries-memory) sort by the columns of that name: total_alloc,
// total_allocs and total_retained inclusive, self_alloc ... without the callees'.
enum class SummarySort {
    self,
    total,
    count,
    hits,
    hit_rate,
    blocked,
    load,
    total_alloc,
    total_allocs,
    total_retained,
    self_alloc,
    self_allocs,
    self_retained,
    name
};

struct SummaryOptions {
    SummarySort sort = SummarySort::self;
    std::optional<double> percent_above;  // keep the rows whose self % is above this
    bool json = false;
    bool by_process = false;  // one row per process (run_summary.hpp)
    bool arguments = false;   // --args: a row per activity and argument (argument_summary.hpp)
};

struct SummaryRow {
    const ProviderTotals* provider = nullptr;
    double self_percent = 0;         // of the summed self time of every provider
    std::optional<double> hit_rate;  // 0..1; none for an activity or a provider never asked
};

// The declaration of `qprof summarize FILE` (--sort, --percent-above, --json, -q).
CommandSpec summarize_command();
// Throws UsageError when --percent-above is not a number from 0 to 100.
SummaryOptions summary_options(const ParsedArgs& args);
// Throws UsageError when the rows are to be sorted by memory the trace did not record.
void check_sort(const Trace& trace, const SummaryOptions& options);

std::vector<SummaryRow> summary_rows(const Trace& trace, const SummaryOptions& options);
void write_summary_text(const Trace& trace, const SummaryOptions& options, std::ostream& out);
void write_summary_json(const Trace& trace, const SummaryOptions& options, std::ostream& out);
// The table, or JSON with options.json.
void write_summary(const Trace& trace, const SummaryOptions& options, std::ostream& out);

// Formatting shared with qprof diff.

// A provider's name in a text table: a text_field (so a line feed in it cannot split the row),
// with " (activity)" after an activity's, " (region)" after a region's.
std::string provider_label(std::string_view provider, bool is_activity, bool is_region = false);

// "1,234 events"
std::string events_text(const Trace& trace);

// How a row sorts: larger values first, a row without a value last; ties by name, then a
// provider before an activity of the same name.
struct SortKey {
    std::optional<double> value;
    std::string_view name;
    bool is_activity = false;
};
bool sorts_before(const SortKey& a, const SortKey& b);

}  // namespace qprof::cli
