// The protocol buffers wire format, written by hand: the few shapes the pprof reporter needs
// (varints, length-delimited bytes and nested messages, packed repeated varints), so that
// qprof needs no protobuf library.
//
//   ProtoWriter line;
//   line.varint(1, function_id);
//   line.varint(2, line_number);
//   location.message(4, line);          // field 4 of the enclosing message
#pragma once

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
    void packed(std::uint32_t field, std::span<const std::uint64_t> values) {
        ProtoWriter list;
        for (const std::uint64_t value : values) {
            list.raw_varint(value);
        }
        bytes(field, list.out_);
    }
    const std::string& data() const { return out_; }

  private:
    void tag(std::uint32_t field, std::uint32_t wire_type) {
        raw_varint(std::uint64_t{field} << 3 | wire_type);
    }
    void raw_varint(std::uint64_t value) {
        while (value >= 0x80) {
            out_ += static_cast<char>((value & 0x7f) | 0x80);
            value >>= 7;
        }
        out_ += static_cast<char>(value);
    }

    std::string out_;
};

}  // namespace qprof::detail
