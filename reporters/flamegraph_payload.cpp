// The flame graph's frames as the viewer reads them: one JSON array of integers per column,
// so that tens of thousands of frames parse in a few milliseconds.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "flamegraph_parts.hpp"
#include "format.hpp"
#include "html_parts.hpp"

namespace qprof::detail::flamegraph {

namespace {

// Indexed by FrameKind, then the root's own kind; "hit" is listed but no frame has it.
constexpr std::string_view kKinds[] = {"thread", "miss",     "hit", "blocked",
                                       "load",   "activity", "all"};
constexpr std::int64_t kAllKind = 6;
static_assert(static_cast<int>(FrameKind::activity) + 1 == kAllKind);

struct Row {
    std::int64_t parent = -1;
    std::int64_t name = 0;  // into the string table
    std::int64_t kind = kAllKind;
    std::int64_t count = 0;
    std::int64_t total_ns = 0;
    std::int64_t self_ns = 0;
    std::int64_t hits = 0;          // cache hits among the queries this frame asked
    std::int64_t colour_class = 0;  // its provider's: 1 + index into "classes", 0 for none
    // Its provider's name (into the string table) where the frame's name adds an argument,
    // "codegen unit(math)"; else its name.
    std::int64_t provider = 0;
    std::int64_t total_bytes = 0;
    std::int64_t self_bytes = 0;
};

class Names {
  public:
    std::int64_t index(const std::string& name) {
        const auto [it, added] = index_.try_emplace(name, static_cast<std::int64_t>(names_.size()));
        if (added) {
            names_.push_back(name);
        }
        return it->second;
    }
    const std::vector<std::string>& names() const { return names_; }

  private:
    std::vector<std::string> names_;
    std::unordered_map<std::string, std::int64_t> index_;
};

// 1 + the index of a frame's class in trace.colour_classes (sorted), 0 for none.
std::int64_t class_number(const Trace& trace, std::string_view colour_class) {
    if (colour_class.empty()) {
        return 0;
    }
    const auto found =
        std::lower_bound(trace.colour_classes.begin(), trace.colour_classes.end(), colour_class);
    return found - trace.colour_classes.begin() + 1;
}

std::vector<Row> rows_of(const Trace& trace, const StackTree& tree, const GraphTotals& totals,
                         Names& names) {
    const std::vector<StackFrame>& frames = tree.frames();
    const std::string root = trace.runs.size() > 1 ? "all processes" : "all threads";
    std::vector<Row> rows{Row{.name = names.index(root),
                              .count = 1,
                              .total_ns = totals.total_ns,
                              .total_bytes = totals.total_bytes}};
    std::vector<std::int64_t> row_of(frames.size(), 0);
    for (std::uint32_t f = 0; f < frames.size(); ++f) {
        const StackFrame& frame = frames[f];
        const std::int64_t parent =
            frame.parent == StackFrame::kNoParent ? 0 : row_of[frame.parent];
        if (frame.kind == FrameKind::hit) {  // a leaf with no time: counted, not drawn
            rows[static_cast<std::size_t>(parent)].hits += static_cast<std::int64_t>(frame.count);
            continue;
        }
        row_of[f] = static_cast<std::int64_t>(rows.size());
        const std::int64_t name = names.index(frame.name);
        rows.push_back(
            Row{parent, name, static_cast<std::int64_t>(frame.kind),
                static_cast<std::int64_t>(frame.count), frame.total_ns, frame.self_ns, 0,
                class_number(trace, frame.colour_class),
                frame.key == 0 ? name : names.index(trace.providers[frame.provider].provider),
                frame.total_bytes, frame.self_bytes});
    }
    return rows;
}

// Writes `"name":[v,v,...]` through one buffer.
void write_column(std::ostream& out, std::string_view name, const std::vector<Row>& rows,
                  std::int64_t Row::*field) {
    std::string text;
    text.reserve(rows.size() * 6 + name.size() + 4);
    append_integer_column(text, name, rows.size(), [&](std::size_t i) { return rows[i].*field; });
    out << text;
}

// Whether a frame's call path passes through a wait: its time is then in that wait's.
bool inside_wait(const StackTree& tree, const StackFrame& frame) {
    for (std::uint32_t up = frame.parent; up != StackFrame::kNoParent;
         up = tree.frames()[up].parent) {
        if (tree.frames()[up].kind == FrameKind::blocked) {
            return true;
        }
    }
    return false;
}

}  // namespace

GraphTotals graph_totals(const StackTree& tree) {
    GraphTotals totals{.frames = 1};
    for (const StackFrame& frame : tree.frames()) {
        if (frame.kind == FrameKind::thread && frame.parent == StackFrame::kNoParent) {
            totals.total_ns += frame.total_ns;  // a program's threads are inside it
            totals.total_bytes += frame.total_bytes;
        } else if (frame.kind != FrameKind::activity) {
            totals.queries += frame.count;
        }
        if (frame.kind == FrameKind::hit) {
            totals.hits += frame.count;
        } else {
            totals.frames += 1;
        }
        if (frame.kind == FrameKind::blocked && !inside_wait(tree, frame)) {
            totals.waiting_ns += frame.total_ns;
        }
    }
    return totals;
}

void write_payload(std::ostream& out, const Trace& trace, const StackTree& tree,
                   const GraphTotals& totals) {
    Names names;
    const std::vector<Row> rows = rows_of(trace, tree, totals, names);
    const bool arguments = std::any_of(rows.begin(), rows.end(),
                                       [](const Row& row) { return row.provider != row.name; });
    out << "{\"format\":\"qprof-flamegraph\",\"version\":1,\"wall_ns\":" << trace.wall_ns
        << ",\"total_ns\":" << totals.total_ns << ",\"clock\":" << json_string(trace.clock)
        << ",\n\"kinds\":[";
    for (std::string_view kind : kKinds) {
        out << (kind == kKinds[0] ? "" : ",") << json_string(kind);
    }
    if (!trace.colour_classes.empty()) {  // only then: a page without classes stays as it was
        out << "],\n\"classes\":";
        html::write_colour_classes(out, trace);
        out << ",\n\"names\":[";
    } else {
        out << "],\n\"names\":[";
    }
    for (std::size_t i = 0; i < names.names().size(); ++i) {
        out << (i > 0 ? "," : "") << json_string(names.names()[i]);
    }
    out << "],\n\"frames\":{";
    const std::pair<std::string_view, std::int64_t Row::*> columns[] = {
        {"parent", &Row::parent}, {"name", &Row::name},          {"kind", &Row::kind},
        {"count", &Row::count},   {"total_ns", &Row::total_ns},  {"self_ns", &Row::self_ns},
        {"hits", &Row::hits},     {"class", &Row::colour_class}, {"provider", &Row::provider}};
    for (const auto& [name, field] : columns) {
        // Optional columns only where they say something: pages without stay as they were.
        if ((field == &Row::colour_class && trace.colour_classes.empty()) ||
            (field == &Row::provider && !arguments)) {
            continue;
        }
        out << (name == columns[0].first ? "" : ",\n");
        write_column(out, name, rows, field);
    }
    if (trace.memory_recorded) {
        out << ",\n";
        write_column(out, "total_bytes", rows, &Row::total_bytes);
        out << ",\n";
        write_column(out, "self_bytes", rows, &Row::self_bytes);
    }
    out << "}}";
}

}  // namespace qprof::detail::flamegraph
