// The html page's payload read back as the tests see it (html_reporter_test.cpp,
// html_key_column_test.cpp): an element's text, and the compressed columns and keys as
// Python's zlib decompresses them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace qprof::test {

// The text of the page's element that starts with `open`.
std::string element_text(const std::string& page, const std::string& open);

// The payload's stream: the columns' values, each LEB128 varint as a number, every thread's
// columns one after the other, then the keys (the JSON's "keys" count of them: their heads,
// then the rest of their texts), which end it; the keys' texts put back together.
struct PayloadStream {
    std::vector<std::uint64_t> values;
    std::vector<std::string> keys;

    // The values as columns of `nodes` values each: a trace of one thread of `nodes` nodes.
    std::vector<std::vector<std::uint64_t>> columns(std::size_t nodes) const;
};
PayloadStream payload_stream(const std::string& page);

// The number after "NAME": in the page's payload JSON, from the first such field.
std::uint64_t payload_number(const std::string& page, const std::string& name);

}  // namespace qprof::test
