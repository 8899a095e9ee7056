// The trace as the viewer reads it: per thread, one column per field in pre-order, varint
// coded, in one zlib stream (compressed, or stored when small: columns_method) and written as
// base64 (html_payload_layout.hpp);
// then the keys' texts in the same stream; beside it, JSON with the rest (providers,
// statistics) and each part's size, so that the viewer can check what it decompressed. toyc's ten
// million nodes make 5.7 MB of text.

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <span>
#include <vector>

#include "deflate.hpp"
#include "format.hpp"
#include "html_key_codes.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "html_stats.hpp"

namespace qprof::detail::html {

namespace {

using layout::Column;
using layout::Encoding;
using layout::Field;

// Values are encoded this many at a time, so that no column is ever held whole and what is held
// stays in the core's cache (128 KiB of values, 160 KiB of room for their bytes).
constexpr std::uint32_t kValuesPerWrite = 16 * 1024;

// columns_method's limit: kStoredColumnsBytes unless a test sets another.
std::atomic<std::uint64_t> stored_columns_limit{kStoredColumnsBytes};

// Node n's tag, from its head and the two fields of its body that importance reads: a whole
// Node built for each took a fifth of the encoder's instructions.
std::uint64_t tag_of(const Trace& trace, const Preorder& order, std::uint32_t n,
                     const Importance& important) {
    const NodeHead& head = order.head(n);
    const bool is_important = important(head.outcome, order.duration_ns(n), order.extent(n));
    return std::uint64_t{trace.sites[head.site].provider_index} << layout::kProviderShift |
           (is_important ? layout::kImportantFlag : 0) |
           (head.unfinished ? layout::kUnfinishedFlag : 0) |
           (static_cast<std::uint64_t>(head.outcome) & layout::kOutcomeMask);
}

constexpr std::size_t kMaxVarintBytes = 10;  // 64 bits, 7 a byte

// Writes `value` as a varint at `out`; returns the byte after it.
char* put_varint(char* out, std::uint64_t value) {
    while (value >= 0x80) {
        *out++ = static_cast<char>((value & 0x7f) | 0x80);
        value >>= 7;
    }
    *out++ = static_cast<char>(value);
    return out;
}

std::uint64_t zigzag(std::int64_t value) {
    return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}

bool present(const Column& column, const Preorder& order) {
    switch (column.presence) {
        case layout::Presence::always:
            return true;
        case layout::Presence::keys:
            return !order.thread().keys.empty();  // keys recorded, or an activity's argument
        case layout::Presence::memory:
            return !order.thread().memory.empty();
    }
    return true;
}

// Where each node starts, as the viewer rebuilds it (the gap column, html_payload_layout.hpp):
// gaps are small numbers where starts would take many bytes each. Asked of every node once, in
// pre-order: the viewer's cursor in a node's parent is kept by depth (a node's children come
// after it and before its next sibling), where one by node took two arrays of megabytes, each
// page of them new memory.
class StartGaps {
  public:
    explicit StartGaps(const Preorder& order) : order_(order) {}

    std::int64_t next(std::uint32_t n) {
        const std::size_t depth = order_.depth(n);
        if (cursors_.size() < depth + 2) {
            cursors_.resize(depth + 2, 0);
        }
        std::int64_t& at = cursors_[depth];  // where the parent's next child may start
        if (order_.outcome(n) == Outcome::hit) {
            cursors_[depth + 1] = at;
            return 0;
        }
        const std::int64_t gap = std::max<std::int64_t>(0, order_.start(n) - at);
        cursors_[depth + 1] = at + gap;
        at += gap + order_.duration_ns(n);
        return gap;
    }

  private:
    const Preorder& order_;
    std::vector<std::int64_t> cursors_ = std::vector<std::int64_t>(2, 0);  // the roots' first
};

// The values of `field` for nodes [from, to) into `values`: one loop per field, so that the
// field is not decided per value. The keys' codes go on from where `keys` left them.
void field_values(Field field, const Trace& trace, const Preorder& order,
                  const Importance& important, StartGaps& gaps, KeyCodes& keys, std::uint32_t from,
                  std::uint32_t to, std::uint64_t* values) {
    const auto fill = [&](auto value_of) {
        for (std::uint32_t n = from; n < to; ++n) {
            values[n - from] = value_of(n);
        }
    };
    const ThreadTrace& thread = order.thread();
    switch (field) {
        case Field::tag:
            return fill([&](std::uint32_t n) { return tag_of(trace, order, n, important); });
        case Field::size:
            return fill([&](std::uint32_t n) { return std::uint64_t{order.end(n) - n}; });
        case Field::dur:
            return fill(
                [&](std::uint32_t n) { return static_cast<std::uint64_t>(order.duration_ns(n)); });
        case Field::gap:
            return fill([&](std::uint32_t n) { return static_cast<std::uint64_t>(gaps.next(n)); });
        case Field::key:
            return fill([&](std::uint32_t n) {
                return keys.encode(thread.keys[order.post_index(n)],
                                   order.node(n).outcome == Outcome::hit, order.end(n) - n);
            });
        case Field::allocated:
            return fill([&](std::uint32_t n) {
                return thread.memory[order.post_index(n)].allocated_bytes;
            });
        case Field::allocations:
            return fill(
                [&](std::uint32_t n) { return thread.memory[order.post_index(n)].allocations; });
        case Field::retained:
            return fill([&](std::uint32_t n) {
                return static_cast<std::uint64_t>(
                    thread.memory[order.post_index(n)].retained_bytes);
            });
    }
}

// `values` as `encoding` writes them, at `out`; returns the byte after the last.
char* encode(Encoding encoding, std::span<const std::uint64_t> values, char* out) {
    switch (encoding) {
        case Encoding::varint:
        case Encoding::key_codes:  // field_values gave the codes
            for (const std::uint64_t value : values) {
                out = put_varint(out, value);
            }
            break;
        case Encoding::zigzag_varint:
            for (const std::uint64_t value : values) {
                out = put_varint(out, zigzag(static_cast<std::int64_t>(value)));
            }
            break;
    }
    return out;
}

// Room for kValuesPerWrite values and their bytes, made once for every column: each written
// through a pointer (appending to a string byte by byte cost more than the values).
struct ColumnRoom {
    std::unique_ptr<std::uint64_t[]> values =
        std::make_unique_for_overwrite<std::uint64_t[]>(kValuesPerWrite);
    std::unique_ptr<char[]> bytes =
        std::make_unique_for_overwrite<char[]>(std::size_t{kValuesPerWrite} * kMaxVarintBytes);
};

// One column of one thread into the compressor; returns its size in bytes.
std::uint64_t write_column(const ByteSink& sink, const Column& column, const Trace& trace,
                           const Preorder& order, const Importance& important, StartGaps& gaps,
                           KeyCodes& keys, ColumnRoom& room) {
    std::uint64_t size = 0;
    for (std::uint32_t from = 0; from < order.size(); from += kValuesPerWrite) {
        const std::uint32_t to = std::min(order.size(), from + kValuesPerWrite);
        field_values(column.field, trace, order, important, gaps, keys, from, to,
                     room.values.get());
        char* const end = encode(column.encoding, {room.values.get(), to - from}, room.bytes.get());
        const auto used = static_cast<std::size_t>(end - room.bytes.get());
        sink({room.bytes.get(), used});
        size += used;
    }
    return size;
}

// ,"cpu":[[n,ns],...]: the thread CPU time of the thread's activities, by pre-order index.
void write_activity_cpu(std::ostream& out, const Preorder& order) {
    const ThreadTrace& thread = order.thread();
    if (thread.activity_cpu.empty()) {
        return;
    }
    out << ",\"cpu\":[";
    const char* separator = "";
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        if (order.node(n).outcome != Outcome::activity) {
            continue;
        }
        if (const std::int64_t ns = thread.cpu_ns(order.post_index(n)); ns >= 0) {
            out << separator << '[' << n << ',' << ns << ']';
            separator = ",";
        }
    }
    out << ']';
}

// A command line to show beside a process: the arguments after the program, cut to about
// kCommandBytes (at a character's start) with an ellipsis.
constexpr std::size_t kCommandBytes = 160;

std::string command_text(const RunInfo& run) {
    std::string text;
    for (std::size_t i = 1; i < run.argv.size() && text.size() <= kCommandBytes; ++i) {
        text += (i > 1 ? " " : "") + run.argv[i];
    }
    if (text.size() > kCommandBytes) {
        std::size_t cut = kCommandBytes;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) {
            --cut;
        }
        text = text.substr(0, cut) + "\u2026";
    }
    return text;
}

// The processes of a merged build, in order of start; threads name theirs by index. A trace
// of one run has none.
void write_processes(std::ostream& out, const Trace& trace) {
    out << ",\n\"processes\":[";
    for (std::size_t i = 0; i < trace.runs.size(); ++i) {
        const RunInfo& run = trace.runs[i];
        out << (i > 0 ? ",\n" : "") << "{\"program\":" << json_string(run.program)
            << ",\"pid\":" << run.pid << ",\"start_ns\":" << run.start_offset_ns
            << ",\"wall_ns\":" << run.wall_ns << ",\"events\":" << run.events
            << ",\"command\":" << json_string(command_text(run)) << '}';
    }
    out << ']';
}

// The keys' heads, then the rest of their texts (layout::kKeyLengths): each key's text after
// what it shares with one of the kKeysBack before it (html_payload_layout.hpp). The texts are
// held until the heads are written, in pieces of about kValuesPerWrite bytes.
void write_keys(const ByteSink& sink, const Trace& trace, PayloadColumns& sizes) {
    std::string heads;
    std::string texts;
    std::array<std::string, layout::kKeysBack> before;  // key i - b at [(i - b) % kKeysBack]
    char varint[kMaxVarintBytes];
    const auto put = [&](std::uint64_t value) {  // a count, not an end: g++ 12 -O2 warned falsely
        heads.append(varint, static_cast<std::size_t>(put_varint(varint, value) - varint));
    };
    for (std::size_t i = 0; i < trace.key_texts.size(); ++i) {
        std::string text = valid_utf8(trace.key_texts[i]);
        std::size_t back = 0;
        std::size_t shared = 0;
        for (std::size_t b = 1; b <= std::min(i, before.size()); ++b) {
            const std::string& earlier = before[(i - b) % before.size()];
            const std::size_t common =
                common_prefix(reinterpret_cast<const unsigned char*>(text.data()),
                              reinterpret_cast<const unsigned char*>(earlier.data()),
                              std::min(text.size(), earlier.size()));
            if (common > shared) {
                back = b;
                shared = common;
            }
        }
        put(back);
        if (back != 0) {
            put(shared);
        }
        put(text.size() - shared);
        texts.append(text, shared);
        before[i % before.size()] = std::move(text);
        if (heads.size() >= kValuesPerWrite) {
            sink(heads);
            sizes.key_length_bytes += heads.size();
            heads.clear();
        }
    }
    if (!heads.empty()) {
        sink(heads);
        sizes.key_length_bytes += heads.size();
    }
    for (std::size_t at = 0; at < texts.size(); at += kValuesPerWrite) {
        sink(std::string_view{texts}.substr(at, kValuesPerWrite));
    }
    sizes.key_count = trace.key_texts.size();
    sizes.key_text_bytes = texts.size();
}

}  // namespace

PayloadColumns encode_payload_columns(const ByteSink& sink, const Trace& trace,
                                      const std::vector<Preorder>& orders,
                                      const Importance& important, bool hit_keys) {
    PayloadColumns sizes;
    KeyCodes keys{trace.key_texts.size(), hit_keys};
    ColumnRoom room;
    for (const Preorder& order : orders) {
        auto& thread = sizes.threads.emplace_back();
        StartGaps gaps{order};
        keys.start_thread();
        for (const Column& column : layout::kColumns) {
            if (present(column, order)) {
                thread.emplace_back(column.name, write_column(sink, column, trace, order, important,
                                                              gaps, keys, room));
            }
        }
    }
    write_keys(sink, trace, sizes);
    sizes.hit_keys = keys.hit_keys();
    sizes.hits_left_out = keys.hits_left_out();
    return sizes;
}

std::uint64_t columns_least_bytes(const Trace& trace, const std::vector<Preorder>& orders) {
    std::uint64_t least = 0;  // a value takes one byte at least
    for (const Preorder& order : orders) {
        for (const Column& column : layout::kColumns) {
            least += present(column, order) ? order.size() : 0;
        }
    }
    for (const std::string& text : trace.key_texts) {
        least += text.size();
    }
    return least;
}

Deflater::Method columns_method(std::uint64_t least_bytes) {
    return least_bytes <= stored_columns_limit.load(std::memory_order_relaxed)
               ? Deflater::Method::store
               : Deflater::Method::compress;
}

void set_stored_columns_limit(std::uint64_t bytes) {
    stored_columns_limit.store(bytes, std::memory_order_relaxed);
}

void write_payload(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders,
                   const Importance& important, const std::vector<ProviderStats>& stats,
                   const PayloadColumns& columns) {
    out << "{\"format\":" << json_string(layout::kFormat) << ",\"version\":" << layout::kVersion
        << ",\"wall_ns\":" << trace.wall_ns << ",\"total_ns\":" << important.total_ns()
        << ",\"clock\":" << json_string(trace.clock)
        << ",\"hits_recorded\":" << (trace.selection.hits ? "true" : "false")
        << (trace.memory_recorded ? ",\"memory_recorded\":true" : "")
        << ",\"important\":{\"extent\":" << important.extent()
        << ",\"percent\":" << important.percent() << "},\n\"providers\":[";
    for (std::size_t i = 0; i < trace.providers.size(); ++i) {
        out << (i > 0 ? "," : "") << "{\"name\":" << json_string(trace.providers[i].provider)
            << ",\"activity\":" << (trace.providers[i].is_activity ? "true" : "false")
            << (trace.providers[i].is_region ? ",\"region\":true" : "");
        if (trace.providers[i].colour_class != 0) {
            out << ",\"class\":" << trace.providers[i].colour_class;
        }
        out << '}';
    }
    out << ']';
    if (!trace.colour_classes.empty()) {  // only then: a page without classes stays as it was
        out << ",\n\"classes\":";
        write_colour_classes(out, trace);
    }
    out << ",\n\"keys\":{\"count\":" << columns.key_count << ",\"" << layout::kKeyLengths
        << "\":" << columns.key_length_bytes << ",\"" << layout::kKeyText
        << "\":" << columns.key_text_bytes;
    if (columns.hits_left_out > 0) {  // only then: a page with every key stays as it was
        out << ",\"" << layout::kHitsLeftOut << "\":" << columns.hits_left_out;
    }
    out << "},\n\"stats\":";
    write_stats(out, stats);
    write_counter_names(out, trace);
    const bool merged = trace.runs.size() > 1;
    if (merged) {
        write_processes(out, trace);
    }
    out << ",\n\"compression\":" << json_string(layout::kCompression) << ",\n\"threads\":[";
    for (std::size_t i = 0; i < orders.size(); ++i) {
        out << (i > 0 ? ",\n" : "") << "{\"name\":" << json_string(orders[i].thread().name)
            << ",\"nodes\":" << orders[i].size();
        if (merged) {
            out << ",\"process\":" << orders[i].thread().run;
        }
        out << ",\"bytes\":{";
        for (std::size_t c = 0; c < columns.threads[i].size(); ++c) {
            out << (c > 0 ? "," : "") << '"' << columns.threads[i][c].first
                << "\":" << columns.threads[i][c].second;
        }
        out << '}';
        write_activity_cpu(out, orders[i]);
        write_thread_counters(out, orders[i].thread());
        out << '}';
    }
    out << "]}";
}

}  // namespace qprof::detail::html
