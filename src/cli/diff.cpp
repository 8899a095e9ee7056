// qprof diff: matching the providers of two runs, and the table and JSON of the changes (the
// HTML page is diff_html.cpp).
#include "diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "format.hpp"
#include "html_parts.hpp"
#include "summary.hpp"

namespace qprof::cli {

namespace {

// Self time of work per call the cache did not answer.
std::optional<std::int64_t> mean_per_run(const ProviderTotals& provider) {
    const std::uint64_t runs = provider.count - std::min(provider.hits, provider.count);
    if (runs == 0) {
        return std::nullopt;
    }
    return detail::html::work_self_ns(provider) / static_cast<std::int64_t>(runs);
}

bool within_noise(const DiffRow& row, std::int64_t base_wall_ns) {
    if (row.presence != Presence::both) {
        return false;
    }
    const double change = std::abs(static_cast<double>(row.change_ns));
    return (row.change_percent && std::abs(*row.change_percent) < kNoisePercent) ||
           change * 100.0 < kNoiseWallPercent * static_cast<double>(base_wall_ns);
}

// Self memory of the runs that recorded it; the changes only when both did.
void add_memory(DiffRow& row, const ProviderTotals& before, const ProviderTotals& after,
                bool base_memory, bool new_memory) {
    const auto allocated = [](const ProviderTotals& provider) {
        return static_cast<std::int64_t>(provider.memory_self.allocated_bytes);
    };
    if (base_memory) {
        row.base_self_allocated = allocated(before);
    }
    if (new_memory) {
        row.new_self_allocated = allocated(after);
    }
    if (base_memory && new_memory) {
        row.allocated_change = allocated(after) - allocated(before);
        row.allocations_change = static_cast<std::int64_t>(after.memory_self.allocations) -
                                 static_cast<std::int64_t>(before.memory_self.allocations);
        row.retained_change = after.memory_self.retained_bytes - before.memory_self.retained_bytes;
    }
}

DiffRow row_of(const ProviderTotals* base, const ProviderTotals* next, const Trace& base_run,
               const Trace& new_run) {
    const ProviderTotals absent;
    const ProviderTotals& before = base ? *base : absent;
    const ProviderTotals& after = next ? *next : absent;
    DiffRow row;
    row.provider = base ? base->provider : next->provider;
    row.is_activity = base ? base->is_activity : next->is_activity;
    row.is_region = base ? base->is_region : next->is_region;
    row.presence = !base ? Presence::only_new : !next ? Presence::only_base : Presence::both;
    row.base_self_ns = detail::html::work_self_ns(before);
    row.new_self_ns = detail::html::work_self_ns(after);
    row.change_ns = row.new_self_ns - row.base_self_ns;
    if (row.presence == Presence::both && row.base_self_ns != 0) {
        row.change_percent =
            100.0 * static_cast<double>(row.change_ns) / static_cast<double>(row.base_self_ns);
    }
    row.base_mean_ns = base ? mean_per_run(before) : std::nullopt;
    row.new_mean_ns = next ? mean_per_run(after) : std::nullopt;
    row.noise = within_noise(row, base_run.wall_ns);
    row.count_change =
        static_cast<std::int64_t>(after.count) - static_cast<std::int64_t>(before.count);
    row.hits_change =
        static_cast<std::int64_t>(after.hits) - static_cast<std::int64_t>(before.hits);
    add_memory(row, before, after, base_run.memory_recorded, new_run.memory_recorded);
    return row;
}

std::vector<DiffRow> matched_rows(const Trace& base, const Trace& next) {
    std::map<std::pair<std::string_view, bool>, const ProviderTotals*> unmatched;  // of NEW
    for (const ProviderTotals& provider : next.providers) {
        unmatched.emplace(std::pair{std::string_view(provider.provider), provider.is_activity},
                          &provider);
    }
    std::vector<DiffRow> rows;
    for (const ProviderTotals& provider : base.providers) {
        const auto it = unmatched.find({provider.provider, provider.is_activity});
        rows.push_back(row_of(&provider, it == unmatched.end() ? nullptr : it->second, base, next));
        if (it != unmatched.end()) {
            unmatched.erase(it);
        }
    }
    for (const auto& [key, provider] : unmatched) {
        rows.push_back(row_of(nullptr, provider, base, next));
    }
    return rows;
}

SortKey sort_key(const DiffRow& row, DiffSort sort) {
    std::optional<double> value = 0.0;  // for name: every row alike, so the names decide
    if (row.noise && sort != DiffSort::name) {
        value = std::nullopt;  // after every real change
    } else if (sort == DiffSort::change) {
        value = std::abs(static_cast<double>(row.change_ns));
    } else if (sort == DiffSort::change_percent) {
        value = row.change_percent ? std::optional(std::abs(*row.change_percent)) : std::nullopt;
    }
    if (sort == DiffSort::alloc_change) {  // memory has no noise; no change sorts last
        value = row.allocated_change
                    ? std::optional(std::abs(static_cast<double>(*row.allocated_change)))
                    : std::nullopt;
    }
    return {value, row.provider, row.is_activity};
}

// Text: signs on every change that is not zero.

std::string optional_ms_text(std::optional<std::int64_t> ns) {
    return ns ? detail::ms_text(*ns) : "\u2014";
}

void write_text_header(const DiffRun& base, const DiffRun& next, std::ostream& out) {
    const std::size_t width =
        std::max(detail::display_width(base.file), detail::display_width(next.file));
    for (const auto& [role, run] : {std::pair{"base: ", &base}, std::pair{"new:  ", &next}}) {
        out << role << detail::pad(run->file, width + 2) << detail::ms_text(run->trace.wall_ns)
            << " ms wall time, " << events_text(run->trace) << '\n';
    }
    out << "wall time change: " << detail::signed_ms_text(next.trace.wall_ns - base.trace.wall_ns)
        << " ms (" << detail::signed_percent_text(wall_change_percent(base, next)) << ")\n"
        << noise_text(base) << "\n\n";
}

std::vector<std::string> time_cells(const DiffRow& row) {
    const std::string absent = "\u2014";
    return {provider_label(row.provider, row.is_activity, row.is_region),
            row.presence == Presence::only_new ? absent : detail::ms_text(row.base_self_ns),
            row.presence == Presence::only_base ? absent : detail::ms_text(row.new_self_ns),
            detail::signed_ms_text(row.change_ns),
            detail::signed_percent_text(row.change_percent),
            optional_ms_text(row.base_mean_ns),
            optional_ms_text(row.new_mean_ns),
            detail::signed_count_text(row.count_change),
            detail::signed_count_text(row.hits_change),
            row.noise                        ? "~ noise"
            : row.presence == Presence::both ? ""
                                             : std::string(presence_name(row.presence))};
}

bool memory_recorded(const DiffRun& base, const DiffRun& next) {
    return base.trace.memory_recorded || next.trace.memory_recorded;
}

// "—" for a run without memory, and for the side of a run the provider is not in.
std::string kib_cell(std::optional<std::int64_t> bytes, bool present) {
    return bytes && present ? detail::kib_text(*bytes) : "\u2014";
}

std::string signed_kib_cell(std::optional<std::int64_t> bytes) {
    return bytes ? detail::signed_kib_text(*bytes) : "\u2014";
}

std::vector<std::string> text_cells(const DiffRow& row, bool memory) {
    std::vector<std::string> cells = time_cells(row);
    if (memory) {
        cells.insert(
            cells.end() - 1,
            {kib_cell(row.base_self_allocated, row.presence != Presence::only_new),
             kib_cell(row.new_self_allocated, row.presence != Presence::only_base),
             signed_kib_cell(row.allocated_change),
             row.allocations_change ? detail::signed_count_text(*row.allocations_change) : "\u2014",
             signed_kib_cell(row.retained_change)});
    }
    return cells;
}

detail::TextTable diff_table(bool memory) {
    using Align = detail::TextTable::Align;
    std::vector<detail::TextTable::Column> columns{
        {"provider", Align::left}, {"base self ms"}, {"new self ms"},  {"change ms"},  {"change %"},
        {"base ms/run"},           {"new ms/run"},   {"count change"}, {"hits change"}};
    if (memory) {
        columns.insert(columns.end(), {{"base self alloc KiB"},
                                       {"new self alloc KiB"},
                                       {"alloc change KiB"},
                                       {"allocs change"},
                                       {"retained change KiB"}});
    }
    columns.push_back({"", Align::left});
    return detail::TextTable{std::move(columns)};
}

// JSON.

std::string json_run(const DiffRun& run) {
    return "{\"file\":" + detail::json_string(run.file) +
           ",\"wall_ns\":" + std::to_string(run.trace.wall_ns) +
           ",\"events\":" + std::to_string(run.trace.events) + "}";
}

std::string json_memory(const DiffRow& row) {
    return ",\"base_self_allocated_bytes\":" + detail::json_optional(row.base_self_allocated) +
           ",\"new_self_allocated_bytes\":" + detail::json_optional(row.new_self_allocated) +
           ",\"allocated_change_bytes\":" + detail::json_optional(row.allocated_change) +
           ",\"allocations_change\":" + detail::json_optional(row.allocations_change) +
           ",\"retained_change_bytes\":" + detail::json_optional(row.retained_change);
}

std::string json_row(const DiffRow& row, bool memory) {
    return "{\"provider\":" + detail::json_string(row.provider) +
           ",\"activity\":" + (row.is_activity ? "true" : "false") +
           ",\"region\":" + (row.is_region ? "true" : "false") +
           ",\"status\":" + detail::json_string(presence_name(row.presence)) +
           ",\"base_self_ns\":" + std::to_string(row.base_self_ns) +
           ",\"new_self_ns\":" + std::to_string(row.new_self_ns) +
           ",\"change_ns\":" + std::to_string(row.change_ns) + ",\"change_percent\":" +
           (row.change_percent ? detail::number_text(*row.change_percent) : "null") +
           ",\"base_mean_ns\":" + detail::json_optional(row.base_mean_ns) +
           ",\"new_mean_ns\":" + detail::json_optional(row.new_mean_ns) +
           ",\"noise\":" + (row.noise ? "true" : "false") +
           ",\"count_change\":" + std::to_string(row.count_change) +
           ",\"hits_change\":" + std::to_string(row.hits_change) +
           (memory ? json_memory(row) : "") + "}";
}

}  // namespace

// The threshold, stated with what it means for these runs.
std::string noise_text(const DiffRun& base) {
    const auto wall_ns = static_cast<std::int64_t>(static_cast<double>(base.trace.wall_ns) *
                                                   kNoiseWallPercent / 100.0);
    return "noise: changes under " + detail::decimal_text(kNoisePercent, 0) +
           " % of a provider's base self time or under " +
           detail::decimal_text(kNoiseWallPercent, 1) + " % of the base wall time (" +
           detail::ms_text(wall_ns) + " ms) are marked '~' and listed last";
}

std::optional<double> wall_change_percent(const DiffRun& base, const DiffRun& next) {
    if (base.trace.wall_ns <= 0) {
        return std::nullopt;
    }
    return 100.0 * static_cast<double>(next.trace.wall_ns - base.trace.wall_ns) /
           static_cast<double>(base.trace.wall_ns);
}

std::string_view presence_name(Presence presence) {
    switch (presence) {
        case Presence::both:
            return "both";
        case Presence::only_base:
            return "only in base";
        case Presence::only_new:
            return "only in new";
    }
    return "both";
}

CommandSpec diff_command() {
    return {"diff",
            "Compares two saved runs of a program: for each provider, matched by name (an "
            "activity only with an activity), its self time of work (waits left out) in BASE "
            "and in NEW, the change and the change in percent, its self time per run in both, "
            "and the change of its count and hits. A negative change is faster. Changes under "
            "5 % of the base self time or under 0.1 % of the base wall time are noise: marked "
            "'~' and listed last. Providers found in one run only are listed and marked. --html "
            "writes one self-contained page to open in a browser.",
            {{"sort",
              0,
              "KEY",
              "order of the rows: largest absolute change first, largest absolute change in "
              "percent first, largest absolute change of self allocated bytes first (runs "
              "recorded with -Z profile-queries-memory), or by name",
              {"change", "change-pct", "alloc-change", "name"}},
             {"json", 0, "", "write JSON instead of a table"},
             {"html", 0, "", "write an HTML page instead of a table"},
             {"no-progress", 'q', "", "no progress bar on stderr while reading the runs"}},
            {{"BASE", "the run to compare with (.qprof)"}, {"NEW", "the run to compare (.qprof)"}}};
}

DiffOptions diff_options(const ParsedArgs& args) {
    DiffOptions options;
    const std::string sort = args.value_or("sort", "change");
    options.sort = sort == "name"           ? DiffSort::name
                   : sort == "change-pct"   ? DiffSort::change_percent
                   : sort == "alloc-change" ? DiffSort::alloc_change
                                            : DiffSort::change;
    if (args.has("json") && args.has("html")) {
        throw usage_error(diff_command(),
                          "'--json' and '--html' write different formats; give one.");
    }
    options.format = args.has("json")   ? DiffFormat::json
                     : args.has("html") ? DiffFormat::html
                                        : DiffFormat::text;
    return options;
}

std::vector<DiffRow> diff_rows(const Trace& base, const Trace& next, DiffSort sort) {
    std::vector<DiffRow> rows = matched_rows(base, next);
    std::sort(rows.begin(), rows.end(), [&](const DiffRow& a, const DiffRow& b) {
        return sorts_before(sort_key(a, sort), sort_key(b, sort));
    });
    return rows;
}

void write_diff_text(const DiffRun& base, const DiffRun& next, DiffSort sort, std::ostream& out) {
    write_text_header(base, next, out);
    const bool memory = memory_recorded(base, next);
    detail::TextTable table = diff_table(memory);
    for (const DiffRow& row : diff_rows(base.trace, next.trace, sort)) {
        table.add_row(text_cells(row, memory));
    }
    table.write(out);
}

void write_diff_json(const DiffRun& base, const DiffRun& next, DiffSort sort, std::ostream& out) {
    std::string json = "{\"base\":" + json_run(base) + ",\"new\":" + json_run(next);
    json += ",\"wall_change_ns\":" + std::to_string(next.trace.wall_ns - base.trace.wall_ns);
    json += ",\"noise_threshold\":{\"percent\":" + detail::number_text(kNoisePercent) +
            ",\"wall_percent\":" + detail::number_text(kNoiseWallPercent) + '}';
    const bool memory = memory_recorded(base, next);
    json += memory ? ",\"memory\":true" : "";
    json += ",\"providers\":[";
    const std::vector<DiffRow> rows = diff_rows(base.trace, next.trace, sort);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        json += (i > 0 ? ",\n" : "\n") + json_row(rows[i], memory);
    }
    out << json << "]}\n";
}

void write_diff(const DiffRun& base, const DiffRun& next, const DiffOptions& options,
                std::ostream& out) {
    switch (options.format) {
        case DiffFormat::text:
            return write_diff_text(base, next, options.sort, out);
        case DiffFormat::json:
            return write_diff_json(base, next, options.sort, out);
        case DiffFormat::html:
            return write_diff_html(base, next, options.sort, out);
    }
}

}  // namespace qprof::cli
