// The payload's columns (html_payload_layout.hpp): per thread, one column per field in
// pre-order, varint coded; then the keys' texts. Given to a sink in pieces, which
// html_payload_text.cpp compresses or stores in one zlib stream and writes as base64; whether
// they are stored (small) or compressed is columns_method's choice.

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "deflate.hpp"
#include "format.hpp"
#include "html_key_codes.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"

namespace qprof::detail::html {

namespace {

using layout::Column;
using layout::Encoding;
using layout::Field;

// Values are encoded this many at a time, so that what is held of them stays in the core's
// cache (128 KiB of values, 160 KiB of room for their bytes).
constexpr std::uint32_t kValuesPerWrite = 16 * 1024;

// columns_method's limit: kStoredColumnsBytes unless a test sets another.
std::atomic<std::uint64_t> stored_columns_limit{kStoredColumnsBytes};

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

// The values of `field`, one of the columns not every thread has, for nodes [from, to) into
// `values`: one loop per field, so that the field is not decided per value. The keys' codes go
// on from where `keys` left them.
void field_values(Field field, const Preorder& order, KeyCodes& keys, std::uint32_t from,
                  std::uint32_t to, std::uint64_t* values) {
    const auto fill = [&](auto value_of) {
        for (std::uint32_t n = from; n < to; ++n) {
            values[n - from] = value_of(n);
        }
    };
    const ThreadTrace& thread = order.thread();
    switch (field) {
        case Field::tag:
        case Field::size:
        case Field::dur:
        case Field::gap:
            break;  // CommonColumns' alone
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

// One of the columns not every thread has, of one thread, into the compressor; returns its
// size in bytes.
std::uint64_t write_column(const ByteSink& sink, const Column& column, const Preorder& order,
                           KeyCodes& keys, ColumnRoom& room) {
    std::uint64_t size = 0;
    for (std::uint32_t from = 0; from < order.size(); from += kValuesPerWrite) {
        const std::uint32_t to = std::min(order.size(), from + kValuesPerWrite);
        field_values(column.field, order, keys, from, to, room.values.get());
        char* const end = encode(column.encoding, {room.values.get(), to - from}, room.bytes.get());
        const auto used = static_cast<std::size_t>(end - room.bytes.get());
        sink({room.bytes.get(), used});
        size += used;
    }
    return size;
}

// A column's bytes, held in pieces until they are written: each block of values is written
// into the last piece while it has room for the block's largest size, else into the next. Pieces
// are kept to be filled again; none is copied to grow, and none is much larger than its bytes.
class HeldColumn {
  public:
    static constexpr std::size_t kPieceBytes = 256 * 1024;
    static constexpr std::size_t kBlockBytes = std::size_t{kValuesPerWrite} * kMaxVarintBytes;
    static_assert(kBlockBytes <= kPieceBytes);

    // Where the next block, of at most kBlockBytes, is written; end_block(its end) after it.
    char* begin_block() {
        if (used_ == 0 || kPieceBytes - pieces_[used_ - 1].size < kBlockBytes) {
            if (used_ == pieces_.size()) {
                pieces_.push_back(Piece{std::make_unique_for_overwrite<char[]>(kPieceBytes), 0});
            }
            pieces_[used_++].size = 0;
        }
        return pieces_[used_ - 1].bytes.get() + pieces_[used_ - 1].size;
    }
    void end_block(const char* end) {
        Piece& piece = pieces_[used_ - 1];
        piece.size = static_cast<std::size_t>(end - piece.bytes.get());
    }
    // What is held, to `sink`, then nothing; returns how many bytes.
    std::uint64_t flush(const ByteSink& sink) {
        std::uint64_t bytes = 0;
        for (std::size_t i = 0; i < used_; ++i) {
            sink({pieces_[i].bytes.get(), pieces_[i].size});
            bytes += pieces_[i].size;
        }
        used_ = 0;
        return bytes;
    }

  private:
    struct Piece {
        std::unique_ptr<char[]> bytes;
        std::size_t size;
    };
    std::vector<Piece> pieces_;
    std::size_t used_ = 0;  // pieces_ holding this column's bytes
};

// The four columns every thread has (tag, size, dur, gap: layout::kColumns' first four), made in
// one walk over its nodes. A walk per column read each node four times and asked four times
// whether it has a body, which a trace of hits among timed scopes mispredicts often: 4.6 against
// 2.1 ms for the 280,000 events of a scan (the same trace, in one process). A plain leaf hit
// reads an empty body, so that the walk has no branch on which it is. The tag, first, goes to
// the sink block by block as it is made, so that a compressor has work from the start; the other
// three are held until the walk ends, then written.
class CommonColumns {
  public:
    static constexpr std::size_t kCount = 4;

    // Writes `order`'s four columns to `sink`, one after the other; returns their sizes.
    std::array<std::uint64_t, kCount> write(const ByteSink& sink, const Trace& trace,
                                            const Preorder& order, const Importance& important) {
        cursors_.assign(2, 0);  // the roots' cursor first
        std::array<std::uint64_t, kCount> sizes{};
        for (std::uint32_t from = 0; from < order.size(); from += kValuesPerWrite) {
            const std::uint32_t to = std::min(order.size(), from + kValuesPerWrite);
            std::array<char*, kCount> at{};
            for (std::size_t c = 0; c < kCount; ++c) {
                at[c] = columns_[c].begin_block();
            }
            for (std::uint32_t n = from; n < to; ++n) {
                const Values values = values_of(trace, order, important, n);
                for (std::size_t c = 0; c < kCount; ++c) {
                    at[c] = put_varint(at[c], values[c]);
                }
            }
            for (std::size_t c = 0; c < kCount; ++c) {
                columns_[c].end_block(at[c]);
            }
            sizes[0] += columns_[0].flush(sink);
        }
        for (std::size_t c = 1; c < kCount; ++c) {
            sizes[c] = columns_[c].flush(sink);
        }
        return sizes;
    }

  private:
    using Values = std::array<std::uint64_t, kCount>;

    // Node n's tag, size, duration and gap. The gap is where the node starts, as the viewer
    // rebuilds it (html_payload_layout.hpp): the distance from its cursor, kept by depth (a
    // node's children come after it and before its next sibling): a hit sits at its cursor
    // (its gap and its duration are 0) and a timed node moves its cursor to its own end.
    Values values_of(const Trace& trace, const Preorder& order, const Importance& important,
                     std::uint32_t n) {
        static constexpr NodeBody kEmpty{};
        const NodeHead& head = order.head(n);
        const NodeBody* found = order.body(n);
        const NodeBody& body = found != nullptr ? *found : kEmpty;
        const bool hit = head.outcome == Outcome::hit;
        const std::int64_t duration = hit ? 0 : body.end - body.start;  // as duration_ns(n)
        const std::uint32_t size =
            found != nullptr ? order.post_index(n) - body.first + 1 : 1;  // end(n) - n
        const std::uint64_t tag =
            std::uint64_t{trace.sites[head.site].provider_index} << layout::kProviderShift |
            (important(head.outcome, duration, body.extent) ? layout::kImportantFlag : 0) |
            (head.unfinished ? layout::kUnfinishedFlag : 0) |
            (static_cast<std::uint64_t>(head.outcome) & layout::kOutcomeMask);
        const std::uint32_t depth = order.depth(n);
        if (cursors_.size() < depth + 2) {
            cursors_.resize(depth + 2, 0);
        }
        const std::int64_t cursor = cursors_[depth];  // where the parent's next child may start
        const std::int64_t gap = hit ? 0 : std::max<std::int64_t>(0, body.start - cursor);
        cursors_[depth + 1] = cursor + gap;
        cursors_[depth] = cursor + gap + duration;
        return {tag, size, static_cast<std::uint64_t>(duration), static_cast<std::uint64_t>(gap)};
    }

    std::array<HeldColumn, kCount> columns_;
    std::vector<std::int64_t> cursors_;  // by depth
};

static_assert(
    [] {
        constexpr std::array<Field, CommonColumns::kCount> kCommon = {Field::tag, Field::size,
                                                                      Field::dur, Field::gap};
        for (std::size_t c = 0; c < kCommon.size(); ++c) {
            if (layout::kColumns[c].field != kCommon[c] ||
                layout::kColumns[c].presence != layout::Presence::always) {
                return false;
            }
        }
        return true;
    }(),
    "CommonColumns makes the first four columns, which every thread has");

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
    CommonColumns common;
    ColumnRoom room;
    for (const Preorder& order : orders) {
        auto& thread = sizes.threads.emplace_back();
        const auto common_sizes = common.write(sink, trace, order, important);
        for (std::size_t c = 0; c < CommonColumns::kCount; ++c) {
            thread.emplace_back(layout::kColumns[c].name, common_sizes[c]);
        }
        keys.start_thread();
        for (const Column& column : std::span{layout::kColumns}.subspan(CommonColumns::kCount)) {
            if (present(column, order)) {
                thread.emplace_back(column.name, write_column(sink, column, order, keys, room));
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

}  // namespace qprof::detail::html
