// Damaged, foreign and hostile streams: the reader says what is wrong and where, reports
// what came before the damage, and never crashes.
#include "raw_reader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>

#include "clock_samples.hpp"
#include "raw_cursor.hpp"
#include "raw_events.hpp"
#include "raw_format.hpp"
#include "test_support.hpp"

using qprof::detail::Diagnostic;
using qprof::detail::ReadResult;
using qprof::test::read_file;
using qprof::test::TempDir;
namespace raw = qprof::detail::raw;

namespace {

// A small stream of a real run: two threads, keys, a few hundred events.
std::string small_stream() {
    TempDir dir;
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.record_keys = true;
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    {
        qprof::test::ManualClock clock;
        qprof::Session session{options};
        for (int i = 0; i < 200; ++i) {
            PROFILE_QUERY(typeck, i);
            PROFILE_QUERY_HIT(type_of, i % 9);
        }
    }
    return read_file(dir.path() / "profile_queries.qprof");
}

ReadResult read(const std::string& bytes) {
    return qprof::detail::read_stream(
        {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
        {.keep_nodes = true, .progress = {}});
}

std::uint64_t events(ReadResult& result) {
    std::uint64_t count = 0;
    for (auto& run : result.runs) {
        count += qprof::detail::complete_trace(std::move(run.inputs)).events;
    }
    return count;
}

const Diagnostic* first_error(const ReadResult& result) {
    for (const Diagnostic& diagnostic : result.diagnostics) {
        if (diagnostic.severity == Diagnostic::Severity::error) {
            return &diagnostic;
        }
    }
    return nullptr;
}

// Where each block starts, read from a sound stream.
std::vector<raw::Block> blocks_of(const std::string& bytes) {
    raw::BlockCursor cursor{{reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}};
    cursor.read_file_header();
    std::vector<raw::Block> blocks;
    while (auto block = cursor.next()) {
        blocks.push_back(*block);
    }
    return blocks;
}

// A stream made by hand: header, SESSION, a site of each kind (1 the query typeck, 2 the
// activity parsing, 3 the size object file, 4 the counter live nodes), a key type (1, counted
// chars), then `records` as one RECORDS block.
std::string forged_stream(const std::vector<std::uint64_t>& records) {
    std::string out = raw::file_header(0);
    std::uint32_t seq = 0;
    raw::BlockEncoder session{out, raw::BlockType::session, seq++};
    for (std::uint64_t field : {1000, 0, 0}) {
        session.u64(field);
    }
    for (int byte = 0; byte < 4; ++byte) {
        session.u8(byte == 0 ? 2 : 0);  // manual clock
    }
    session.u32(6);
    session.f64(1.0);
    session.u32(1);
    session.u32(0);
    session.str("forged");
    session.finish();
    raw::BlockEncoder sites{out, raw::BlockType::sites, seq++};
    sites.u32(1);
    sites.u32(4);
    const std::pair<const char*, std::uint8_t> declared[] = {
        {"typeck", 0}, {"parsing", 1}, {"object file", 3}, {"live nodes", 4}};
    for (const auto& [name, kind] : declared) {
        sites.u32(7);
        sites.u8(kind);
        sites.str(name);
        sites.str("a.cpp");
    }
    sites.finish();
    raw::BlockEncoder key_types{out, raw::BlockType::key_types, seq++};
    raw::KeyTypesBlock{.first_id = 1, .types = {{.payload_words = 0, .counted = true}}}.encode(
        key_types);
    key_types.finish();
    raw::BlockEncoder block{out, raw::BlockType::records, seq++};
    block.u32(0);
    block.u32(static_cast<std::uint32_t>(records.size()));
    block.words(records.data(), records.size());
    block.finish();
    return out;
}

std::uint64_t head(int kind, std::uint32_t depth, std::uint32_t site) {
    return static_cast<std::uint64_t>(kind) << 56 | static_cast<std::uint64_t>(depth) << 32 | site;
}

// The offset of the first record word of forged_stream's RECORDS block.
std::uint64_t first_record_offset(const std::string& bytes) {
    return blocks_of(bytes).back().offset + raw::kBlockHeaderBytes + 8;
}

}  // namespace

TEST_CASE("CRC32C is the Castagnoli checksum, in hardware and in software") {
    CHECK(raw::crc32c("123456789", 9) == 0xE3069283);
    CHECK(raw::crc32c_portable("123456789", 9) == 0xE3069283);
    std::string noise(4099, '\0');
    for (std::size_t i = 0; i < noise.size(); ++i) {
        noise[i] = static_cast<char>(i * 2654435761u >> 13);
    }
    for (std::size_t length : {0, 1, 7, 8, 9, 63, 4099}) {
        CHECK(raw::crc32c(noise.data(), length) == raw::crc32c_portable(noise.data(), length));
    }
}

TEST_CASE("a stream cut anywhere reports what came before the cut, and says where") {
    const std::string whole = small_stream();
    ReadResult sound = read(whole);
    REQUIRE(sound.diagnostics.empty());
    const std::uint64_t all_events = events(sound);
    REQUIRE(all_events == 400);
    std::uint64_t last_events = 0;
    for (std::size_t cut = 0; cut < whole.size(); cut += 8) {
        INFO("cut at byte " << cut);
        ReadResult result = read(whole.substr(0, cut));
        CHECK((result.damaged || result.foreign));
        const Diagnostic* error = first_error(result);
        REQUIRE(error != nullptr);
        CHECK(error->offset <= cut);
        const std::uint64_t count = events(result);
        CHECK(count >= last_events);
        CHECK(count <= all_events);
        last_events = count;
    }
    CHECK(last_events > 0);
    ReadResult cut = read(whole.substr(0, whole.size() - 3));
    REQUIRE(first_error(cut) != nullptr);
    CHECK_THAT(first_error(cut)->text,
               Catch::Contains("the stream ends inside block #") && Catch::Contains("(END)"));
}

TEST_CASE("a changed byte in any block is a checksum error at that block") {
    const std::string whole = small_stream();
    for (const raw::Block& block : blocks_of(whole)) {
        if (block.payload.empty()) {
            continue;
        }
        INFO("block #" << block.index << " " << raw::block_name(block.type));
        std::string damaged = whole;
        damaged[block.offset + raw::kBlockHeaderBytes] ^= 0x20;
        const ReadResult result = read(damaged);
        CHECK(result.damaged);
        REQUIRE(first_error(result) != nullptr);
        CHECK(first_error(result)->offset == block.offset + 12);
        CHECK_THAT(first_error(result)->text, Catch::Contains("checksum mismatch"));
    }
}

TEST_CASE("files that are not qprof streams are refused at byte 0 with what was expected") {
    const std::string whole = small_stream();
    std::string newer = whole;
    newer[12] = 2;  // major version 2
    newer[14] = 0;  // minor 0
    const std::uint32_t crc = raw::crc32c(newer.data(), 28);
    std::memcpy(newer.data() + 28, &crc, 4);
    std::string big_endian = whole;
    std::reverse(big_endian.begin() + 8, big_endian.begin() + 12);
    const std::vector<std::pair<std::string, std::string>> cases{
        {"", "the file is empty"},
        {"\x89PNG\r\n\x1a\n0000000000000000000000000", "not a qprof stream (expected magic 89 71"},
        {"typeck,33,0.014\n", "found 74 79 70 65 63 6B 2C 33"},
        {newer, "format 2.0 is not one this qprof reads"},
        {big_endian, "byte-order mark"},
    };
    for (const auto& [bytes, message] : cases) {
        INFO(message);
        const ReadResult result = read(bytes);
        CHECK(result.foreign);
        CHECK(result.runs.empty());
        REQUIRE(first_error(result) != nullptr);
        CHECK_THAT(first_error(result)->text, Catch::Contains(message));
    }
}

TEST_CASE("records with checksums right but contents wrong are refused at their word") {
    const std::vector<std::pair<std::vector<std::uint64_t>, std::string>> cases{
        {{head(2, 0, 9), 1000, 1001}, "record of undeclared site 9 (4 declared)"},
        {{head(2, 0, 0), 1000, 1001}, "record of undeclared site 0"},
        {{head(8, 0, 1)}, "unknown record kind 8"},
        {{head(7, 0, 0)}, "cut off by the end of its block"},  // a cpu record is 2 words
        {{head(2, 1u << 21, 1), 1000, 1001}, "record depth 2097152"},
        {{head(6, 0, 3), 5}, "key record of undeclared key type 3"},
        {{head(6, 0, 1)}, "a key record's count of chars is cut off by the end of its block"},
        {{head(6, 0, 1), 20, 0}, "a record of 5 words is cut off by the end of its block"},
        {{head(2, 0, 1), 1000}, "cut off by the end of its block"},
        {{head(16, 0, 1), 100, 1, 0}, "a memory record that does not follow a timed record"},
        {{head(17, 0, 9), 100}, "record of undeclared site 9"},
        {{head(18, 0, 4), 1000}, "cut off by the end of its block"},  // a counter is 3 words
        // A record naming a site of another kind: never summed as what it is not.
        {{head(17, 0, 4), 100},
         "a size record (kind 17) of site 4, which is a counter site: the record and its site "
         "disagree"},
        {{head(18, 0, 3), 1000, 5}, "a counter record (kind 18) of site 3, which is a size site"},
        {{head(17, 0, 1), 100}, "a size record (kind 17) of site 1, which is a query site"},
        {{head(18, 0, 2), 1000, 5},
         "a counter record (kind 18) of site 2, which is an activity site"},
        {{head(2, 0, 3), 1000, 1001}, "a query record (kind 2) of site 3, which is a size site"},
        {{head(3, 0, 1), 1000, 1001},
         "an activity record (kind 3) of site 1, which is a query site"},
        {{head(19, 0, 1)}, "unknown record kind 19 (expected 1 to 7, or 16 to 18)"},
    };
    for (const auto& [records, message] : cases) {
        INFO(message);
        const std::string bytes = forged_stream(records);
        const ReadResult result = read(bytes);
        CHECK(result.damaged);
        REQUIRE(first_error(result) != nullptr);
        CHECK_THAT(first_error(result)->text, Catch::Contains(message));
        CHECK(first_error(result)->offset == first_record_offset(bytes));
    }
    const std::string memory = forged_stream({head(2, 0, 1), 1000, 1001, head(16, 0, 4), 1, 1, 0});
    const ReadResult memory_result = read(memory);
    REQUIRE(first_error(memory_result) != nullptr);
    CHECK_THAT(first_error(memory_result)->text,
               Catch::Contains("a memory record (kind 16) of site 4, which is a counter site"));
    CHECK(first_error(memory_result)->offset == first_record_offset(memory) + 24);
    const std::string too_many = forged_stream({head(6, 0, 1), 4097});
    const ReadResult too_many_result = read(too_many);
    REQUIRE(first_error(too_many_result) != nullptr);
    CHECK_THAT(first_error(too_many_result)->text,
               Catch::Contains("key record of 4097 chars (expected at most 4096)"));
    CHECK(first_error(too_many_result)->offset == first_record_offset(too_many) + 8);
    const std::string far = forged_stream({head(2, 0, 1), 1000, 1000 + (1ull << 53)});
    const ReadResult result = read(far);
    REQUIRE(first_error(result) != nullptr);
    CHECK(first_error(result)->offset == first_record_offset(far) + 16);
    CHECK_THAT(first_error(result)->text, Catch::Contains("ticks from the session start"));
    const std::string far_counter = forged_stream({head(18, 0, 4), 1000 + (1ull << 53), 5});
    const ReadResult counter_result = read(far_counter);
    REQUIRE(first_error(counter_result) != nullptr);
    CHECK(first_error(counter_result)->offset == first_record_offset(far_counter) + 8);
}

TEST_CASE("a key of counted chars is read from its record, whatever its length") {
    std::uint64_t hello = 0;
    std::memcpy(&hello, "hello", 5);
    std::vector<std::uint64_t> records{head(6, 0, 1), 5, hello, head(1, 0, 1)};
    const std::string long_text(300, 'x');
    records.push_back(head(6, 0, 1));
    records.push_back(long_text.size());
    for (std::size_t at = 0; at < long_text.size(); at += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, long_text.data() + at, std::min<std::size_t>(8, long_text.size() - at));
        records.push_back(word);
    }
    records.push_back(head(1, 0, 1));
    ReadResult result = read(forged_stream(records));
    REQUIRE(result.runs.size() == 1);
    CHECK(result.runs[0].inputs.key_texts == std::vector<std::string>{"hello", long_text});
    CHECK(events(result) == 2);
}

TEST_CASE("a sound forged stream without END is reported with a warning, not dropped") {
    ReadResult result = read(forged_stream({head(1, 1, 1), head(2, 0, 1), 1000, 1010}));
    CHECK(result.damaged);
    REQUIRE(first_error(result) != nullptr);
    CHECK_THAT(first_error(result)->text, Catch::Contains("without an END block"));
    REQUIRE(result.runs.size() == 1);
    const qprof::Trace trace = qprof::detail::complete_trace(std::move(result.runs[0].inputs));
    CHECK(qprof::test::tree_text(trace) == "typeck(+typeck)");
    CHECK(trace.wall_ns == 10);  // the end estimated from the last tick seen
}

TEST_CASE("a memory record gives the scope before it its memory; a 1.1 stream reads as before") {
    std::string stream = forged_stream(
        {head(2, 1, 1), 1000, 1010, head(16, 1, 1), 4096, 3, 1024, head(2, 0, 1), 990, 1020});
    ReadResult result = read(stream);
    REQUIRE(result.runs.size() == 1);
    const qprof::Trace trace = qprof::detail::complete_trace(std::move(result.runs[0].inputs));
    CHECK(trace.events == 2);
    CHECK(trace.memory_recorded);
    REQUIRE(trace.threads.size() == 1);
    REQUIRE(trace.threads[0].memory.size() == 2);
    CHECK(trace.threads[0].memory[0].allocated_bytes == 4096);
    CHECK(trace.threads[0].memory[0].allocations == 3);
    CHECK(trace.threads[0].memory[0].retained_bytes == 3072);
    CHECK(trace.threads[0].memory[1].allocations == 0);  // the outer scope had no record

    std::string older = forged_stream({head(1, 1, 1), head(2, 0, 1), 1000, 1010});
    older[14] = 1;  // minor 1: no memory records
    const std::uint32_t crc = raw::crc32c(older.data(), 28);
    std::memcpy(older.data() + 28, &crc, 4);
    ReadResult old_result = read(older);
    REQUIRE(old_result.runs.size() == 1);
    const qprof::Trace old_trace =
        qprof::detail::complete_trace(std::move(old_result.runs[0].inputs));
    CHECK(qprof::test::tree_text(old_trace) == "typeck(+typeck)");
    CHECK_FALSE(old_trace.memory_recorded);
}

TEST_CASE("merged streams hold one run per segment") {
    const std::string one = small_stream();
    std::string merged = raw::file_header(raw::kFlagMerged | raw::kFlagKeys);
    merged += one.substr(raw::kFileHeaderBytes);
    merged += one.substr(raw::kFileHeaderBytes);
    ReadResult result = read(merged);
    CHECK(result.diagnostics.empty());
    CHECK(result.runs.size() == 2);
    CHECK(events(result) == 800);
}

TEST_CASE("a run whose durations add up past what reports can sum is refused, not reported") {
    std::vector<std::uint64_t> records;
    for (int node = 0; node < 300; ++node) {  // 300 siblings of 2^52 ns: 2^60 ns and more
        records.insert(records.end(), {head(2, 0, 1), 1000, 1000 + (1ull << 52) - 1});
    }
    const ReadResult result = read(forged_stream(records));
    CHECK(result.damaged);
    CHECK(result.runs.empty());
    CHECK(std::any_of(result.diagnostics.begin(), result.diagnostics.end(), [](const auto& d) {
        return d.severity == Diagnostic::Severity::error &&
               d.text.find("add up to more than 2^60 ns") != std::string::npos;
    }));
}

TEST_CASE("a record that ends before it starts takes no time, with a warning, never a negative") {
    // typeck [1000, 1010] holding a typeck that ends 90 ticks before it starts.
    const std::vector<std::uint64_t> records{head(2, 1, 1), 1005, 915, head(2, 0, 1), 1000, 1010};
    for (const bool keep_nodes : {true, false}) {
        const std::string bytes = forged_stream(records);
        ReadResult result = qprof::detail::read_stream(
            {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
            {.keep_nodes = keep_nodes, .progress = {}});
        const auto warning = std::find_if(
            result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& d) {
                return d.severity == Diagnostic::Severity::warning &&
                       d.text.find("1 records end before they start") != std::string::npos;
            });
        CHECK(warning != result.diagnostics.end());
        REQUIRE(result.runs.size() == 1);
        const qprof::Trace trace = qprof::detail::complete_trace(std::move(result.runs[0].inputs));
        const qprof::ProviderTotals& typeck = qprof::test::totals_of(trace, "typeck");
        CHECK(typeck.total_ns == 10);
        CHECK(typeck.self_ns == 10);
        if (keep_nodes) {
            CHECK(trace.threads[0].nodes[0].duration_ns() == 0);
            const std::string chrome = qprof::test::report_text("chrome", trace);
            CHECK(chrome.find("\"dur\":-") == std::string::npos);
            CHECK_THAT(chrome, Catch::Contains("\"ts\":0.005,\"dur\":0.000,"));
        }
    }
}

TEST_CASE("a cut TSC run's tick rate comes from its latest sound clock sample") {
    qprof::detail::ClockSamples tsc{0, 1'000, 5'000};
    CHECK_FALSE(tsc.ns_per_tick());  // no sample: the reader warns and shows ticks
    tsc.add(3'000, 6'000);
    CHECK(tsc.last_tick() == 3'000);
    CHECK(tsc.ns_per_tick() == 0.5);  // 1,000 ns over 2,000 ticks
    tsc.add(3'000'000'000, 6'001);    // a rate no clock has: refused
    CHECK_FALSE(tsc.ns_per_tick());
    const qprof::detail::ClockSamples steady{1, 1'000, 5'000};
    CHECK(steady.ns_per_tick() == 1.0);  // steady and manual clocks count nanoseconds
}
