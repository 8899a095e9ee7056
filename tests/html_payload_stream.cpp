#include "html_payload_stream.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

namespace qprof::test {

namespace {

std::uint64_t read_varint(const std::string& bytes, std::size_t& at) {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
        const auto byte = static_cast<unsigned char>(bytes.at(at++));
        value |= std::uint64_t{byte & 0x7fu} << shift;
        if (byte < 0x80) {
            return value;
        }
    }
}

}  // namespace

std::string element_text(const std::string& page, const std::string& open) {
    const std::size_t start = page.find(open);
    REQUIRE(start != std::string::npos);
    const std::size_t text = page.find('>', start) + 1;
    return page.substr(text, page.find("</script>", text) - text);
}

std::uint64_t payload_number(const std::string& page, const std::string& name) {
    const std::string field = "\"" + name + "\":";
    const std::size_t at = page.find(field, page.find("id=\"qprof-trace\""));
    REQUIRE(at != std::string::npos);
    return std::stoull(page.substr(at + field.size()));
}

PayloadStream payload_stream(const std::string& page) {
    const std::string bytes = decompress_with_python(
        element_text(page, "<script type=\"application/octet-stream\" id=\"qprof-columns\">"),
        "base64-zlib");
    const std::size_t key_count = payload_number(page, "count");
    const std::size_t keys_bytes = payload_number(page, "lengths") + payload_number(page, "text");
    REQUIRE(keys_bytes <= bytes.size());
    PayloadStream stream;
    std::size_t at = 0;
    while (at < bytes.size() - keys_bytes) {  // the columns, before the keys
        stream.values.push_back(read_varint(bytes, at));
    }
    CHECK(at == bytes.size() - keys_bytes);
    // Each key's head -- back, shared (when back is not 0), rest -- then the rest of each text.
    struct Head {
        std::uint64_t back;
        std::uint64_t shared;
        std::uint64_t rest;
    };
    std::vector<Head> heads;
    for (std::size_t k = 0; k < key_count; ++k) {
        Head& head = heads.emplace_back();
        head.back = read_varint(bytes, at);
        head.shared = head.back != 0 ? read_varint(bytes, at) : 0;
        head.rest = read_varint(bytes, at);
    }
    for (const Head& head : heads) {
        REQUIRE(head.back <= stream.keys.size());
        std::string text = head.back != 0
                               ? stream.keys[stream.keys.size() - head.back].substr(0, head.shared)
                               : std::string{};
        CHECK(text.size() == head.shared);
        text += bytes.substr(at, head.rest);
        at += head.rest;
        stream.keys.push_back(std::move(text));
    }
    CHECK(at == bytes.size());
    return stream;
}

std::vector<std::vector<std::uint64_t>> PayloadStream::columns(std::size_t nodes) const {
    REQUIRE(nodes > 0);
    REQUIRE(values.size() % nodes == 0);
    std::vector<std::vector<std::uint64_t>> columns;
    for (std::size_t at = 0; at < values.size(); at += nodes) {
        columns.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(at),
                             values.begin() + static_cast<std::ptrdiff_t>(at + nodes));
    }
    return columns;
}

}  // namespace qprof::test
