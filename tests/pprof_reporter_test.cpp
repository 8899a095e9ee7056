// profile_queries.pb.gz: the gzip container, and the profile read back field by field by a
// small protobuf reader written from the wire format, against a golden text form.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gzip.hpp"
#include "test_support.hpp"

namespace {

// ----- reading back: gzip by Python's gzip module (a reader we trust), then protobuf -----

std::string gunzip(const std::string& file) {
    return qprof::test::decompress_with_python(file, "gzip");
}

// A message as its fields: number -> values (varints as numbers, the rest as bytes).
struct Message {
    std::multimap<std::uint32_t, std::uint64_t> numbers;
    std::multimap<std::uint32_t, std::string> bytes;

    std::uint64_t number(std::uint32_t field) const {
        const auto it = numbers.find(field);
        return it == numbers.end() ? 0 : it->second;
    }
    std::vector<std::string> all(std::uint32_t field) const {
        std::vector<std::string> values;
        for (auto [it, end] = bytes.equal_range(field); it != end; ++it) {
            values.push_back(it->second);
        }
        return values;
    }
};

std::uint64_t varint(const std::string& data, std::size_t& at) {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
        const auto byte = static_cast<unsigned char>(data.at(at++));
        value |= std::uint64_t{byte & 0x7fu} << shift;
        if ((byte & 0x80) == 0) {
            return value;
        }
    }
}

Message parse(const std::string& data) {
    Message message;
    for (std::size_t at = 0; at < data.size();) {
        const std::uint64_t tag = varint(data, at);
        const auto field = static_cast<std::uint32_t>(tag >> 3);
        if ((tag & 7) == 0) {
            message.numbers.emplace(field, varint(data, at));
        } else {
            REQUIRE((tag & 7) == 2);
            const std::uint64_t size = varint(data, at);
            message.bytes.emplace(field, data.substr(at, size));
            at += size;
        }
    }
    return message;
}

std::vector<std::uint64_t> packed(const std::string& data) {
    std::vector<std::uint64_t> values;
    for (std::size_t at = 0; at < data.size();) {
        values.push_back(varint(data, at));
    }
    return values;
}

// The profile as sorted text lines: value types, functions, and each sample as its stack
// from the root, its values and its thread.
std::string profile_text(const std::string& file) {
    const Message profile = parse(gunzip(file));
    const std::vector<std::string> strings = profile.all(6);
    REQUIRE(!strings.empty());
    CHECK(strings[0].empty());
    std::ostringstream out;
    for (const std::string& type : profile.all(1)) {
        const Message value_type = parse(type);
        out << "type " << strings.at(value_type.number(1)) << ' '
            << strings.at(value_type.number(2)) << '\n';
    }
    out << "default " << strings.at(profile.number(14)) << '\n';
    std::map<std::uint64_t, std::string> function_names;
    std::vector<std::string> lines;
    for (const std::string& bytes : profile.all(5)) {
        const Message function = parse(bytes);
        function_names[function.number(1)] = strings.at(function.number(2));
        lines.push_back("function " + strings.at(function.number(2)) + " at line " +
                        std::to_string(function.number(5)));
    }
    std::map<std::uint64_t, std::string> location_names;
    for (const std::string& bytes : profile.all(4)) {
        const Message location = parse(bytes);
        CHECK(location.number(2) == 1);  // the one mapping
        location_names[location.number(1)] =
            function_names.at(parse(location.all(4).at(0)).number(1));
    }
    for (const std::string& bytes : profile.all(2)) {
        const Message sample = parse(bytes);
        std::vector<std::uint64_t> stack = packed(sample.all(1).at(0));
        std::string line = "sample ";
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            line += location_names.at(*it) + (it + 1 == stack.rend() ? "" : ";");
        }
        line += " =";
        for (const std::uint64_t value : packed(sample.all(2).at(0))) {
            line += ' ' + std::to_string(value);
        }
        for (const std::string& bytes : sample.all(3)) {  // thread, then activities' arguments
            const Message label = parse(bytes);
            line += ' ' + strings.at(label.number(1)) + '=' + strings.at(label.number(2));
        }
        lines.push_back(line);
    }
    std::sort(lines.begin(), lines.end());
    for (const std::string& line : lines) {
        out << line << '\n';
    }
    return out.str();
}

// ----- the traced program -----

using qprof::test::traced_type_of;

// The golden file holds the line of each site: "type checking" is on line 136.
qprof::Trace compile_trace() {
    return qprof::test::trace_of([] {  // every clock read advances 1 ms
        {
            PROFILE_ACTIVITY_ARG("type checking", "crate root");  // a label of its samples
            traced_type_of(2);
            PROFILE_QUERY_HIT(type_of, 2);
        }
        std::thread{[] {
            qprof::name_this_thread("worker");
            traced_type_of(1);
        }}.join();
    });
}

}  // namespace

TEST_CASE("gzip: the CRC-32 of gzip's trailer", "[pprof]") {
    CHECK(qprof::detail::crc32_ieee("") == 0);
    CHECK(qprof::detail::crc32_ieee("123456789") == 0xCBF43926u);
}

TEST_CASE("gzip: compressed members read back whole", "[pprof]") {
    for (const std::size_t size :
         {std::size_t{0}, std::size_t{1}, std::size_t{65'536}, std::size_t{300'000}}) {
        std::string data(size, '\0');
        for (std::size_t i = 0; i < size; ++i) {
            data[i] = static_cast<char>(i * 7 + i / 251);
        }
        INFO(size);
        const std::string packed = qprof::detail::gzip_compress(data);
        CHECK(gunzip(packed) == data);
        CHECK(packed.size() < data.size() / 2 + 32);
    }
}

TEST_CASE("pprof: one sample per call path, with runs, hits and self time", "[pprof]") {
    const std::string text = profile_text(qprof::test::report_text("pprof", compile_trace()));
    qprof::test::check_golden(text, "pprof.approved.txt");
}

namespace {

// A value summed by innermost frame ("flat", as `go tool pprof -top` shows it), from the
// profile's text: the value at `index` of each sample (0 runs, 1 hits, 2 self time, ...).
std::map<std::string, std::uint64_t> flat(const std::string& text, std::size_t index) {
    std::map<std::string, std::uint64_t> by_frame;
    std::istringstream lines{text};
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("sample ", 0) != 0) {
            continue;
        }
        const std::size_t values_at = line.find(" = ");
        const std::string stack = line.substr(7, values_at - 7);
        std::istringstream values{line.substr(values_at + 3)};  // then labels, never read
        std::uint64_t value = 0;
        for (std::size_t i = 0; i <= index; ++i) {
            values >> value;
        }
        by_frame[stack.substr(stack.rfind(';') + 1)] += value;
    }
    return by_frame;
}

// compile_trace() as if recorded with -Z profile-queries-memory: each scope allocated 1,000
// bytes of its own in one allocation, so that its inclusive memory is 1,000 per scope of its
// subtree; hits allocate nothing.
qprof::Trace with_memory(qprof::Trace trace) {
    trace.memory_recorded = true;
    for (qprof::ThreadTrace& thread : trace.threads) {
        thread.memory.assign(thread.nodes.size(), {});
        for (std::uint32_t n = 0; n < thread.nodes.size(); ++n) {  // children come first
            if (thread.nodes[n].outcome == qprof::Outcome::hit) {
                continue;
            }
            qprof::MemoryUse& use = thread.memory[n];
            use = {1000, 1, 0};
            for (const std::uint32_t child : thread.children(n)) {
                use.allocated_bytes += thread.memory[child].allocated_bytes;
                use.allocations += thread.memory[child].allocations;
            }
        }
    }
    return trace;
}

}  // namespace

TEST_CASE("pprof: a provider's flat self time is its self time in the totals", "[pprof]") {
    const qprof::Trace trace = compile_trace();
    const auto self = flat(profile_text(qprof::test::report_text("pprof", trace)), 2);
    for (const char* provider : {"type_of", "def_span", "type checking"}) {
        INFO(provider);
        CHECK(self.at(provider) ==
              static_cast<std::uint64_t>(qprof::test::totals_of(trace, provider).self_ns));
    }
}

TEST_CASE("pprof: with memory, self allocated bytes and allocations per sample", "[pprof]") {
    const qprof::Trace trace = with_memory(compile_trace());
    const std::string text = profile_text(qprof::test::report_text("pprof", trace));
    qprof::test::check_golden(text, "pprof_memory.approved.txt");
    const auto runs = flat(text, 0);
    const auto bytes = flat(text, 3);
    const auto allocations = flat(text, 4);
    for (const char* provider : {"type_of", "def_span", "type checking"}) {
        INFO(provider);
        CHECK(bytes.at(provider) == 1000 * runs.at(provider));
        CHECK(allocations.at(provider) == runs.at(provider));
    }
    // Without memory, neither type: the profile of a run without the flag is unchanged.
    CHECK_THAT(profile_text(qprof::test::report_text("pprof", compile_trace())),
               !Catch::Contains("alloc_"));
}
