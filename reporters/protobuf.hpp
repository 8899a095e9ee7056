// The protocol buffers wire format, written by hand: the few shapes the pprof reporter needs
// (varints, length-delimited bytes and nested messages, packed repeated varints), so that
// qprof needs no protobuf library.
//
//   ProtoWriter line;
//   line.varint(1, function_id);
//   line.varint(2, line_number);
//   location.message(4, line);          // field 4 of the enclosing message
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace qprof::detail {

class ProtoWriter {
  public:
    // Zero values are left out, as a proto3 reader assumes them.
    void varint(std::uint32_t field, std::uint64_t value) {
        if (value != 0) {
            tag(field, 0);
            raw_varint(value);
        }
    }
    void bytes(std::uint32_t field, std::string_view data) {
        tag(field, 2);
        raw_varint(data.size());
        out_.append(data);
    }
    void message(std::uint32_t field, const ProtoWriter& nested) { bytes(field, nested.out_); }
    // Sized first, then written in place: appended a byte at a time to a list, then copied, the
    // samples of a 200,000-deep chain (1,000 frames each) took a third longer (48 instead of
    // 35 CPU-seconds for registry_test under ThreadSanitizer).
    void packed(std::uint32_t field, std::span<const std::uint64_t> values) {
        std::size_t size = 0;
        for (const std::uint64_t value : values) {
            size += varint_size(value);
        }
        tag(field, 2);
        raw_varint(size);
        const std::size_t start = out_.size();
        out_.resize(start + size);
        char* next = out_.data() + start;
        for (const std::uint64_t value : values) {
            next = put_varint(next, value);
        }
    }
    const std::string& data() const { return out_; }

  private:
    void tag(std::uint32_t field, std::uint32_t wire_type) {
        raw_varint(std::uint64_t{field} << 3 | wire_type);
    }
    void raw_varint(std::uint64_t value) {
        char varint[kMaxVarintSize];
        out_.append(varint, put_varint(varint, value));
    }
    static constexpr std::size_t kMaxVarintSize = 10;  // 7 bits a byte
    static std::size_t varint_size(std::uint64_t value) {
        return (static_cast<std::size_t>(std::bit_width(value | 1)) + 6) / 7;
    }
    // Writes `value` at `out`; returns the end of what it wrote.
    static char* put_varint(char* out, std::uint64_t value) {
        while (value >= 0x80) {
            *out++ = static_cast<char>((value & 0x7f) | 0x80);
            value >>= 7;
        }
        *out++ = static_cast<char>(value);
        return out;
    }

    std::string out_;
};

}  // namespace qprof::detail
