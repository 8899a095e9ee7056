// qprof summarize: the rows, their order and filter, and the table and JSON they are written as.
#include "summary.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "argument_summary.hpp"
#include "format.hpp"
#include "measure_summary.hpp"
#include "run_summary.hpp"

namespace qprof::cli {

namespace {

// In the order of SummarySort.
std::vector<std::string> sort_names() {
    return {"self",       "total",       "count",         "hits",         "hit-rate",
            "blocked",    "load",        "total-alloc",   "total-allocs", "total-retained",
            "self-alloc", "self-allocs", "self-retained", "name"};
}

SummarySort sort_named(const std::string& name) {
    const std::vector<std::string> names = sort_names();
    const auto it = std::find(names.begin(), names.end(), name);
    return static_cast<SummarySort>(it - names.begin());  // parse_args checked the choice
}

std::optional<double> percent_named(std::string_view text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || !(value >= 0 && value <= 100)) {
        return std::nullopt;
    }
    return value;
}

// Self time is work: a provider's waits on other threads are left out, as `qprof diff` and the
// HTML report leave them out (ProviderTotals::work_self_ns).
std::int64_t summed_self_ns(const Trace& trace) {
    std::int64_t sum = 0;
    for (const ProviderTotals& provider : trace.providers) {
        sum += provider.work_self_ns();
    }
    return sum;
}

SummaryRow row_of(const ProviderTotals& provider, std::int64_t summed_self, bool hits_recorded) {
    SummaryRow row;
    row.provider = &provider;
    if (summed_self > 0) {
        row.self_percent =
            100.0 * static_cast<double>(provider.work_self_ns()) / static_cast<double>(summed_self);
    }
    if (!provider.is_activity && provider.count > 0 && hits_recorded) {
        row.hit_rate = static_cast<double>(provider.hits) / static_cast<double>(provider.count);
    }
    return row;
}

// The value a row is sorted by, largest first; a row without one goes last.
std::optional<double> sort_value(const SummaryRow& row, SummarySort sort) {
    const ProviderTotals& provider = *row.provider;
    switch (sort) {
        case SummarySort::self:
            return provider.work_self_ns();
        case SummarySort::total:
            return provider.total_ns;
        case SummarySort::count:
            return provider.count;
        case SummarySort::hits:
            return provider.hits;
        case SummarySort::hit_rate:
            return row.hit_rate;
        case SummarySort::blocked:
            return provider.blocked_ns;
        case SummarySort::load:
            return provider.load_ns;
        case SummarySort::total_alloc:
            return static_cast<double>(provider.memory_total.allocated_bytes);
        case SummarySort::total_allocs:
            return static_cast<double>(provider.memory_total.allocations);
        case SummarySort::total_retained:
            return static_cast<double>(provider.memory_total.retained_bytes);
        case SummarySort::self_alloc:
            return static_cast<double>(provider.memory_self.allocated_bytes);
        case SummarySort::self_allocs:
            return static_cast<double>(provider.memory_self.allocations);
        case SummarySort::self_retained:
            return static_cast<double>(provider.memory_self.retained_bytes);
        case SummarySort::name:
            break;
    }
    return 0.0;  // every row alike, so the names decide
}

SortKey sort_key(const SummaryRow& row, SummarySort sort) {
    return {sort_value(row, sort), row.provider->provider, row.provider->is_activity};
}

std::vector<std::string> table_cells(const SummaryRow& row, std::int64_t summed_self,
                                     bool hits_recorded, bool memory) {
    const ProviderTotals& p = *row.provider;
    const std::string hit_rate = row.hit_rate
                                     ? detail::column_share_text(static_cast<std::int64_t>(p.hits),
                                                                 static_cast<std::int64_t>(p.count))
                                     : "\u2014";
    std::vector<std::string> cells{
        provider_label(p.provider, p.is_activity, p.is_region),
        detail::ms_text(p.work_self_ns()),
        detail::column_share_text(p.work_self_ns(), summed_self),
        detail::ms_text(p.total_ns),
        p.is_activity && !p.is_region ? detail::ms_text(p.cpu_ns) : "\u2014",
        detail::with_thousands(p.count),
        hits_recorded ? detail::with_thousands(p.hits) : "\u2014",
        hit_rate,
        detail::ms_text(p.blocked_ns),
        detail::ms_text(p.load_ns)};
    if (memory) {
        for (const MemoryUse* use : {&p.memory_self, &p.memory_total}) {
            cells.push_back(detail::kib_text(static_cast<std::int64_t>(use->allocated_bytes)));
            cells.push_back(detail::with_thousands(use->allocations));
            cells.push_back(detail::kib_text(use->retained_bytes));
        }
    }
    return cells;
}

// With memory, self then inclusive: allocated, allocations, retained.
detail::TextTable summary_table(bool memory) {
    using Align = detail::TextTable::Align;
    std::vector<detail::TextTable::Column> columns{{"provider", Align::left},
                                                   {"self ms"},
                                                   {"self %"},
                                                   {"total ms"},
                                                   {"cpu ms"},
                                                   {"count"},
                                                   {"hits"},
                                                   {"hit rate"},
                                                   {"blocked ms"},
                                                   {"load ms"}};
    if (memory) {
        for (const std::string prefix : {"self ", "total "}) {
            columns.push_back({prefix + "alloc KiB"});
            columns.push_back({prefix + "allocs"});
            columns.push_back({prefix + "retained KiB"});
        }
    }
    return detail::TextTable{std::move(columns)};
}

void write_totals_line(const Trace& trace, std::size_t hidden, const SummaryOptions& options,
                       std::ostream& out) {
    const std::size_t threads = trace.threads.size();
    write_run_lines(trace, out);
    // Worded as profile_queries.html and the flame graph say what their shares are of.
    out << "self %: of " << detail::ms_text(summed_self_ns(trace))
        << " ms busy time (the threads' time added up, waits left out)\n";
    out << "total: " << detail::ms_text(trace.wall_ns) << " ms wall time, " << events_text(trace)
        << ", " << threads << (threads == 1 ? " thread" : " threads") << '\n';
    if (hidden > 0) {
        out << hidden << (hidden == 1 ? " provider" : " providers") << " with "
            << detail::number_text(*options.percent_above)
            << " % of the self time or less not shown\n";
    }
    if (const std::string left_out = trace.selection.left_out(trace.keys_recorded);
        !left_out.empty()) {
        out << "not recorded: " << detail::text_field(left_out)
            << (trace.selection.hits ? "" : " (hits and hit rates are unknown, shown as \u2014)")
            << '\n';
    }
}

void append_memory_json(std::string& json, std::string_view prefix, const MemoryUse& use) {
    const std::string field = ",\"" + std::string{prefix};
    json += field + "allocated_bytes\":" + std::to_string(use.allocated_bytes);
    json += field + "allocations\":" + std::to_string(use.allocations);
    json += field + "retained_bytes\":" + std::to_string(use.retained_bytes);
}

// The time spent in regions, every thread's summed: what each region's share is of.
std::int64_t region_ns(const Trace& trace) {
    std::int64_t sum = 0;
    for (const ProviderTotals& provider : trace.providers) {
        sum += provider.is_region ? provider.total_ns : 0;
    }
    return sum;
}

// Each region's share of the time spent in regions, largest first (the JIT profiler's "time
// spent in which loops"), with a blank line before and after; nothing when the run entered none.
// Returns whether it wrote the table.
bool write_regions(const Trace& trace, std::ostream& out) {
    const std::int64_t in_regions = region_ns(trace);
    std::vector<const ProviderTotals*> regions;
    for (const ProviderTotals& provider : trace.providers) {
        if (provider.is_region) {
            regions.push_back(&provider);
        }
    }
    if (regions.empty()) {
        return false;
    }
    std::stable_sort(regions.begin(), regions.end(), [](const auto* a, const auto* b) {
        return a->total_ns != b->total_ns ? a->total_ns > b->total_ns : a->provider < b->provider;
    });
    using Align = detail::TextTable::Align;
    detail::TextTable table{{{"region", Align::left}, {"total ms"}, {"share"}, {"runs"}}};
    for (const ProviderTotals* region : regions) {
        table.add_row({detail::text_field(region->provider), detail::ms_text(region->total_ns),
                       detail::column_share_text(region->total_ns, in_regions),
                       detail::with_thousands(region->count)});
    }
    out << '\n';
    table.write(out);
    out << "regions: " << detail::ms_text(in_regions) << " ms in all, every thread's summed\n\n";
    return true;
}

void append_json_row(std::string& json, const SummaryRow& row, std::int64_t in_regions,
                     bool memory) {
    const ProviderTotals& p = *row.provider;
    json += "{\"provider\":" + detail::json_string(p.provider);
    json += p.is_activity ? ",\"activity\":true" : ",\"activity\":false";
    json += p.is_region ? ",\"region\":true" : ",\"region\":false";
    json += ",\"self_ns\":" + std::to_string(p.work_self_ns());
    json += ",\"self_percent\":" + detail::number_text(row.self_percent);
    json += ",\"total_ns\":" + std::to_string(p.total_ns);
    json += ",\"count\":" + std::to_string(p.count);
    json += ",\"hits\":" + std::to_string(p.hits);
    json += ",\"hit_rate\":" + (row.hit_rate ? detail::number_text(*row.hit_rate) : "null");
    json += ",\"blocked_ns\":" + std::to_string(p.blocked_ns);
    json += ",\"load_ns\":" + std::to_string(p.load_ns);
    json += ",\"cpu_ns\":" +
            (p.is_activity && !p.is_region ? std::to_string(p.cpu_ns) : std::string{"null"});
    json += ",\"region_percent\":" +
            (p.is_region && in_regions > 0
                 ? detail::number_text(100.0 * static_cast<double>(p.total_ns) /
                                       static_cast<double>(in_regions))
                 : std::string{"null"});
    if (memory) {
        append_memory_json(json, "", p.memory_total);
        append_memory_json(json, "self_", p.memory_self);
    }
    json += "}";
}

}  // namespace

CommandSpec summarize_command() {
    return {
        "summarize",
        "Prints where the time of a saved run went: one row per provider, activities marked "
        "\"(activity)\" and regions \"(region)\", with its self time (its own work, without the "
        "queries it asked or its waits on other threads), its share of all self time, its total "
        "time, an activity's thread CPU time, how often it was asked, its hits and hit rate, and "
        "the time it spent blocked on other threads and loading from a persistent cache; then "
        "each region's share of the time spent in regions. Under the table: the run's program, "
        "command line, directory, host, start and end time and peak memory. Times are in "
        "milliseconds; with --json, in nanoseconds.",
        {{"sort", 0, "KEY", "order of the rows, largest first; name sorts A to Z", sort_names()},
         {"percent-above", 0, "P", "only the providers with more than P % of the self time"},
         {"json", 0, "", "write JSON instead of a table"},
         {"args", 0, "",
          "then a row per activity and argument (PROFILE_ACTIVITY_ARG): runs, total and CPU "
          "time, share of the activity's time"},
         {"by-process", 0, "",
          "one row per process instead (a merged build): program, pid, arguments, start, wall "
          "time, events, peak RSS"},
         {"no-progress", 'q', "", "no progress bar on stderr while reading FILE"}},
        {{"FILE", "a saved run (.qprof)"}}};
}

SummaryOptions summary_options(const ParsedArgs& args) {
    SummaryOptions options;
    options.sort = sort_named(args.value_or("sort", "self"));
    options.json = args.has("json");
    options.by_process = args.has("by-process");
    options.arguments = args.has("args");
    if (args.has("percent-above")) {
        const std::string text = args.value_or("percent-above", "");
        options.percent_above = percent_named(text);
        if (!options.percent_above) {
            throw usage_error(summarize_command(),
                              "bad value '" + text +
                                  "' for '--percent-above': expected a number from 0 to 100, as "
                                  "in '--percent-above=1.5'.");
        }
    }
    return options;
}

void check_sort(const Trace& trace, const SummaryOptions& options) {
    const bool by_memory =
        options.sort >= SummarySort::total_alloc && options.sort <= SummarySort::self_retained;
    if (by_memory && !trace.memory_recorded && !options.by_process) {
        throw usage_error(summarize_command(),
                          "'--sort=" + sort_names()[static_cast<std::size_t>(options.sort)] +
                              "' sorts by memory, but this run did not record memory: record it "
                              "with -Z profile-queries-memory, or sort by another key.");
    }
}

std::vector<SummaryRow> summary_rows(const Trace& trace, const SummaryOptions& options) {
    const std::int64_t summed_self = summed_self_ns(trace);
    std::vector<SummaryRow> rows;
    for (const ProviderTotals& provider : trace.providers) {
        SummaryRow row = row_of(provider, summed_self, trace.selection.hits);
        if (!options.percent_above || row.self_percent > *options.percent_above) {
            rows.push_back(row);
        }
    }
    std::sort(rows.begin(), rows.end(), [&](const SummaryRow& a, const SummaryRow& b) {
        return sorts_before(sort_key(a, options.sort), sort_key(b, options.sort));
    });
    return rows;
}

void write_summary_text(const Trace& trace, const SummaryOptions& options, std::ostream& out) {
    const std::int64_t summed_self = summed_self_ns(trace);
    const std::vector<SummaryRow> rows = summary_rows(trace, options);
    detail::TextTable table = summary_table(trace.memory_recorded);
    for (const SummaryRow& row : rows) {
        table.add_row(table_cells(row, summed_self, trace.selection.hits, trace.memory_recorded));
    }
    table.write(out);
    bool blank_line = write_regions(trace, out);
    if (options.arguments) {
        out << (blank_line || trace.arguments.empty() ? "" : "\n");
        write_arguments_text(trace, out);
        blank_line = blank_line || !trace.arguments.empty();
    }
    write_measure_tables(trace, blank_line, out);
    write_totals_line(trace, trace.providers.size() - rows.size(), options, out);
}

void write_summary_json(const Trace& trace, const SummaryOptions& options, std::ostream& out) {
    std::string json = "{\"wall_ns\":" + std::to_string(trace.wall_ns);
    json += ",\"events\":" + std::to_string(trace.events);
    json += ",\"threads\":" + std::to_string(trace.threads.size());
    json += ",\"program\":" + detail::json_string(trace.program);
    json += ",\"pid\":" + std::to_string(trace.pid);
    json += "," + runs_json(trace);
    json +=
        ",\"not_recorded\":" + detail::json_string(trace.selection.left_out(trace.keys_recorded));
    json += ",\"total_self_ns\":" + std::to_string(summed_self_ns(trace));
    json += ",\"providers\":[";
    const std::vector<SummaryRow> rows = summary_rows(trace, options);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        json += i > 0 ? ",\n" : "\n";
        append_json_row(json, rows[i], region_ns(trace), trace.memory_recorded);
    }
    json += "]";
    if (options.arguments) {
        append_arguments_json(trace, json);
    }
    out << json << ",\n" << measures_json(trace) << "}\n";
}

void write_summary(const Trace& trace, const SummaryOptions& options, std::ostream& out) {
    if (options.by_process) {
        options.json ? write_processes_json(trace, out) : write_processes_text(trace, out);
    } else if (options.json) {
        write_summary_json(trace, options, out);
    } else {
        write_summary_text(trace, options, out);
    }
}

std::string provider_label(std::string_view provider, bool is_activity, bool is_region) {
    const std::string name = detail::text_field(provider);
    return is_region ? name + " (region)" : is_activity ? name + " (activity)" : name;
}

std::string events_text(const Trace& trace) {
    const std::uint64_t events = trace.events;
    return detail::count_text(events, "event", "events");
}

bool sorts_before(const SortKey& a, const SortKey& b) {
    if (a.value != b.value) {
        return !b.value || (a.value && *a.value > *b.value);
    }
    if (a.name != b.name) {
        return a.name < b.name;
    }
    return !a.is_activity && b.is_activity;
}

}  // namespace qprof::cli
