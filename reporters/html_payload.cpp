// The trace as the viewer reads it: JSON with one array of integers per column and thread,
// in pre-order, so that a million nodes parse in a fraction of a second.

#include <algorithm>

#include "html_parts.hpp"
#include "html_stats.hpp"

namespace qprof::detail::html {

namespace {

// tag = provider * 32 + important * 16 + unfinished * 8 + outcome.
std::uint64_t tag_of(const Trace& trace, const Node& node, const Importance& important) {
    return std::uint64_t{trace.sites[node.site].provider_index} * 32 + (important(node) ? 16 : 0) +
           (node.unfinished ? 8 : 0) + static_cast<std::uint64_t>(node.outcome);
}

// Where each node starts, as the viewer rebuilds it: `gap` is the time from the node's cursor
// to its start, the cursor being its parent's start (0 for the thread's first root) or, after
// a timed sibling, that sibling's end. Gaps are small numbers where starts would take ten
// digits each. A hit reads no clock: its gap is 0, it sits at the cursor and does not move it.
std::vector<std::int64_t> start_gaps(const Preorder& order) {
    std::vector<std::int64_t> gaps(order.size());
    std::vector<std::int64_t> cursor(std::size_t{order.size()} + 1);  // by parent; roots last
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        std::int64_t& at = cursor[order.parent(n)];
        const Node& node = order.node(n);
        if (node.outcome == Outcome::hit) {
            cursor[n] = at;
            continue;
        }
        gaps[n] = std::max<std::int64_t>(0, node.start_ns - at);
        cursor[n] = at + gaps[n];
        at = cursor[n] + order.duration_ns(n);
    }
    return gaps;
}

// Writes `"name":[v,v,...]` through one buffer: this runs for every node.
template <typename Value>
void write_column(std::ostream& out, std::string_view name, const Preorder& order, Value value_of) {
    std::string text;
    text.reserve(std::size_t{order.size()} * 4 + 16);
    append_integer_column(text, name, order.size(),
                          [&](std::size_t n) { return value_of(static_cast<std::uint32_t>(n)); });
    out << text;
}

void write_thread(std::ostream& out, const Trace& trace, const Preorder& order,
                  const Importance& important) {
    out << "{\"name\":" << json_string(order.thread().name) << ',';
    write_column(out, "tag", order,
                 [&](std::uint32_t n) { return tag_of(trace, order.node(n), important); });
    out << ',';
    write_column(out, "size", order,
                 [&](std::uint32_t n) { return std::uint64_t{order.end(n) - n}; });
    out << ',';
    write_column(out, "dur", order, [&](std::uint32_t n) { return order.duration_ns(n); });
    out << ',';
    const std::vector<std::int64_t> gaps = start_gaps(order);
    write_column(out, "gap", order, [&](std::uint32_t n) { return gaps[n]; });
    if (trace.keys_recorded && !order.thread().keys.empty()) {
        out << ',';
        write_column(out, "key", order, [&](std::uint32_t n) {
            return std::uint64_t{order.thread().keys[order.post_index(n)]};
        });
    }
    out << '}';
}

}  // namespace

void write_payload(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders,
                   const Importance& important, const std::vector<ProviderStats>& stats) {
    out << "{\"format\":\"qprof-html-trace\",\"version\":1,\"wall_ns\":" << trace.wall_ns
        << ",\"total_ns\":" << important.total_ns() << ",\"clock\":" << json_string(trace.clock)
        << ",\"important\":{\"extent\":" << important.extent()
        << ",\"percent\":" << important.percent() << "},\n\"providers\":[";
    for (std::size_t i = 0; i < trace.providers.size(); ++i) {
        out << (i > 0 ? "," : "") << "{\"name\":" << json_string(trace.providers[i].provider)
            << ",\"activity\":" << (trace.providers[i].is_activity ? "true" : "false") << '}';
    }
    out << "],\n\"keys\":[";
    for (std::size_t i = 0; i < trace.key_texts.size(); ++i) {
        out << (i > 0 ? "," : "") << json_string(trace.key_texts[i]);
    }
    out << "],\n\"stats\":";
    write_stats(out, stats);
    out << ",\n\"threads\":[";
    for (std::size_t i = 0; i < orders.size(); ++i) {
        out << (i > 0 ? ",\n" : "");
        write_thread(out, trace, orders[i], important);
    }
    out << "]}";
}

}  // namespace qprof::detail::html
